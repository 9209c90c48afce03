import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fromWebview } from '../../../src/core/chat/protocol';
import { isDescriptorId } from '../../../src/core/ids';

/**
 * Just enough of a DOM and of the webview API for `chips.ts` to build a chip and post on its click.
 * The module is loaded with `require` so that the main tsconfig (no DOM types) does not type-check it.
 */
class FakeElement {
  className = '';
  textContent = '';
  title = '';
  readonly attributes = new Map<string, string>();
  readonly children: (FakeElement | string)[] = [];
  private readonly listeners = new Map<string, (() => void)[]>();

  constructor(readonly tagName: string) {}
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  append(...nodes: (FakeElement | string)[]): void {
    this.children.push(...nodes);
  }
  addEventListener(type: string, listener: () => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  click(): void {
    for (const listener of this.listeners.get('click') ?? []) listener();
  }
}

type DescriptorChipFn = (descriptor: string, note?: string) => FakeElement;

const globals = globalThis as Record<string, unknown>;
const posted: unknown[] = [];
let descriptorChip: DescriptorChipFn;

/** What a click on a chip for `id` posts to the extension. */
function clickChip(id: string): unknown[] {
  posted.length = 0;
  descriptorChip(id).click();
  return [...posted];
}

describe('webview: descriptor chips', () => {
  before(() => {
    globals['acquireVsCodeApi'] = () => ({
      postMessage: (message: unknown) => posted.push(message),
      getState: () => undefined,
      setState: () => undefined,
    });
    globals['window'] = { addEventListener: () => undefined };
    globals['document'] = { createElement: (tag: string) => new FakeElement(tag) };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    descriptorChip = (require('../../../src/webview/chips') as { descriptorChip: DescriptorChipFn }).descriptorChip;
  });

  after(() => {
    for (const name of ['acquireVsCodeApi', 'window', 'document']) delete globals[name];
  });

  it('opens a descriptor on click, with a message the extension accepts', () => {
    assert.deepEqual(clickChip('fd:3'), [{ type: 'openDescriptor', descriptor: 'fd:3' }]);
    assert.deepEqual(clickChip('ref:parse_config@2'), [{ type: 'openDescriptor', descriptor: 'ref:parse_config@2' }]);
    assert.ok(fromWebview.safeParse(posted[0]).success);
  });

  it('opens ref ids of 101 to 128 characters and no longer posts ids with a leading _', () => {
    for (const length of [100, 101, 128])
      assert.equal(clickChip(`ref:${'a'.repeat(length)}`).length, 1, String(length));
    assert.deepEqual(clickChip(`ref:${'a'.repeat(129)}`), []);
    for (const id of ['ref:_x', 'ref:.x', 'ref:-x', 'fd:0', 'fd:01', 'ref:x@0', 'ref:', 'nonsense'])
      assert.deepEqual(clickChip(id), [], id);
  });

  it('posts exactly for the ids of the core grammar, and the extension accepts every one it posts', () => {
    const nearId = fc
      .array(fc.constantFrom('ref:', 'fd:', '@', '0', '1', '9', 'a', 'Z', '_', '.', '-', ' '), { maxLength: 10 })
      .map((parts) => parts.join(''));
    const longRef = fc.stringMatching(/^[A-Za-z0-9_.-]{95,135}$/).map((id) => `ref:${id}`);
    fc.assert(
      fc.property(fc.oneof(nearId, longRef), (id) => {
        const sent = clickChip(id);
        assert.equal(sent.length, isDescriptorId(id) ? 1 : 0, id);
        for (const message of sent) assert.ok(fromWebview.safeParse(message).success, id);
      }),
      { numRuns: 1000 },
    );
  });
});
