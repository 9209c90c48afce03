import assert from 'node:assert/strict';
import { fromWebview } from '../../../src/core/chat/protocol';
import { MAX_LINK_CHARS } from '../../../src/core/chat/protocolLimits';

/**
 * Just enough of a DOM and of the webview API for `links.ts` to route a click on a link. The module is loaded
 * with `require` so that the main tsconfig (no DOM types) does not type-check it.
 */
class FakeElement {
  constructor(private readonly href: string | null) {}
  closest(selector: string): FakeElement | null {
    return selector === 'a' ? this : null;
  }
  getAttribute(name: string): string | null {
    return name === 'href' ? this.href : null;
  }
}

type Listener = (event: unknown) => void;

const globals = globalThis as Record<string, unknown>;
const posted: unknown[] = [];
const listeners = new Map<string, Listener[]>();
const freshModules = ['../../../src/webview/vscode', '../../../src/webview/links'];

/** What a click on a link to `href` posts to the extension. */
function clickLink(href: string | null): unknown[] {
  posted.length = 0;
  const event = {
    type: 'click',
    button: 0,
    target: new FakeElement(href),
    preventDefault: () => undefined,
    stopPropagation: () => undefined,
  };
  for (const listener of listeners.get('click') ?? []) listener(event);
  return [...posted];
}

describe('webview: links', () => {
  before(() => {
    globals['acquireVsCodeApi'] = () => ({
      postMessage: (message: unknown) => posted.push(message),
      getState: () => undefined,
      setState: () => undefined,
    });
    globals['window'] = { addEventListener: () => undefined };
    globals['Element'] = FakeElement;
    globals['document'] = {
      addEventListener: (type: string, listener: Listener) =>
        listeners.set(type, [...(listeners.get(type) ?? []), listener]),
    };
    // Fresh copies: another test may have loaded `vscode.ts` with its own `acquireVsCodeApi`.
    for (const module of freshModules) delete require.cache[require.resolve(module)];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('../../../src/webview/links') as { routeLinks: () => void }).routeLinks();
  });

  after(() => {
    for (const name of ['acquireVsCodeApi', 'window', 'Element', 'document']) delete globals[name];
    // Later tests load their own copies, with their own `acquireVsCodeApi`.
    for (const module of freshModules) delete require.cache[require.resolve(module)];
  });

  it('passes on links up to the length the extension accepts, and no longer ones', () => {
    const longest = `https://example.com/${'a'.repeat(MAX_LINK_CHARS - 'https://example.com/'.length)}`;
    const sent = clickLink(longest);
    assert.deepEqual(sent, [{ type: 'openLink', href: longest }]);
    assert.ok(fromWebview.safeParse(sent[0]).success);
    assert.deepEqual(clickLink(`${longest}a`), []);
    assert.deepEqual(clickLink(null), []);
  });
});
