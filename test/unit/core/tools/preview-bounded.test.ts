import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Session } from '../../../../src/core';
import { awkwardText } from '../../support/arbitraries';
import { child, parseXml, type XmlElement } from '../../support/xml';
import { memoryText } from '../../../support/descriptorText';

type Kind = 'tool_output' | 'user_input';

/** What the model gets for `text` (a tool output or a user message) with these limits. */
function wrap(kind: Kind, text: string, pageSize: number, limit: number) {
  const session = new Session({ pageSize, maxDirectOutputChars: limit, maxInputChars: limit });
  const wrapped =
    kind === 'tool_output'
      ? session.wrapToolOutputAsDescriptor('shell', text)
      : session.pageUserInputAsDescriptor(text);
  return { session, ...wrapped };
}

/** Characters XML cannot carry, which the preview shows as U+FFFD (one code unit for one). */
const NOT_XML_CHAR =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The `start`s of every `read_fd(fd="...", start=N) to start=M` (or plain `read_fd(fd="...")`) the message names. */
function namedReads(message: string, fd: string): number[] {
  const starts: number[] = [];
  const call = /read_fd\(fd="([^"]*)"(?:, start=(\d+))?\)(?: to start=(\d+))?/g;
  for (const match of message.matchAll(call)) {
    assert.equal(match[1], fd, `the message names its own descriptor: ${message}`);
    const first = Number(match[2] ?? 1);
    starts.push(first);
    if (match[3] !== undefined) starts.push(Number(match[3]));
  }
  assert.ok(starts.length > 0, `the message says how to read the content: ${message}`);
  return starts;
}

/** Checks everything the model is promised about the reply for `text`. */
async function checkReply(kind: Kind, text: string, pageSize: number, limit: number): Promise<void> {
  const { session, text: reply, descriptor } = wrap(kind, text, pageSize, limit);
  if (text.length <= limit) {
    assert.equal(reply, text);
    assert.equal(descriptor, undefined);
    return;
  }
  assert.ok(descriptor, 'text over the limit is stored');
  assert.equal(memoryText(descriptor), text);
  assert.ok(reply.length <= text.length, `the reply (${reply.length}) is never longer than the text (${text.length})`);
  if (reply === text) return; // even an empty preview's reply would have been longer
  assert.ok(
    reply.length < text.length,
    `a reply that stands for the text (${reply.length}) is shorter than it (${text.length})`,
  );
  const root: XmlElement = parseXml(reply);
  assert.equal(root.name, kind === 'tool_output' ? 'fd_result' : 'fd_user_input');
  assert.equal(root.attributes['fd'], descriptor.id);
  const pages = (await descriptor.content.pageTable(pageSize)).length - 1;
  assert.equal(root.attributes['pages'], String(pages));
  const preview = root.children.find((c) => c.name === 'preview')?.text ?? '';
  assert.ok(preview.length <= limit, `the preview (${preview.length}) is within the limit (${limit})`);
  assert.ok(
    preview.length <= ((await descriptor.content.pageTable(pageSize))[1] as number),
    'the preview is within page 1',
  );
  assert.equal(
    preview,
    text.slice(0, preview.length).replace(NOT_XML_CHAR, '\uFFFD'),
    'the preview is the start of the text',
  );
  for (const start of namedReads(child(root, 'message').text, descriptor.id)) {
    assert.ok(start >= 1 && start <= pages, `page ${start} of ${pages} exists`);
    const page = parseXml(await session.callTool('read_fd', { fd: descriptor.id, start }));
    assert.equal(page.name, 'fd_content', `read_fd start=${start} works`);
  }
}

const longLines = fc
  .tuple(
    fc.integer({ min: 0, max: 6000 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([length, tail, lines]) => Array.from({ length: lines + 1 }, () => 'x'.repeat(length) + tail).join('\n'));
const manyLines = fc
  .array(fc.string({ unit: 'grapheme-ascii', maxLength: 60 }), { maxLength: 300 })
  .map((lines) => lines.join('\n'));
const unicode = fc.string({ unit: 'grapheme', maxLength: 3000 });
const anyText = fc.oneof(
  awkwardText,
  longLines,
  manyLines,
  unicode,
  fc.constant('😀'.repeat(1500)),
  fc.constant('\r\n'.repeat(1500)),
);
const pageSizes = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 5000 }), fc.constant(4000));
const limits = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 9000 }), fc.constantFrom(100, 8000));

describe('previews of stored tool outputs and messages', () => {
  it('a 3,000-character message or tool output with a limit of 100 reaches the model shorter than itself', () => {
    const message = 'The quick brown fox jumps over the lazy dog. '.repeat(67).slice(0, 3000);
    assert.equal(message.length, 3000);
    for (const kind of ['user_input', 'tool_output'] as const) {
      const { text, descriptor } = wrap(kind, message, 4000, 100);
      assert.ok(descriptor, kind);
      assert.ok(text.length < message.length, `${kind}: ${text.length} characters for 3000`);
      const preview = child(parseXml(text), 'preview').text;
      assert.ok(preview.length <= 100, `${kind}: a preview of ${preview.length}`);
      assert.ok(message.startsWith(preview));
    }
  });

  it('names no second page when there is only one', async () => {
    const message = 'one line of a message that fits on a single page\n'.repeat(60);
    for (const kind of ['user_input', 'tool_output'] as const) {
      const { text } = wrap(kind, message, 4000, 100);
      const root = parseXml(text);
      assert.equal(root.attributes['pages'], '1');
      assert.doesNotMatch(child(root, 'message').text, /start=2/);
      await checkReply(kind, message, 4000, 100);
    }
  });

  it('keeps the whole first page as the preview when the limit allows it', () => {
    const output = 'row of a long tool output\n'.repeat(1000);
    const root = parseXml(wrap('tool_output', output, 4000, 8000).text);
    assert.equal(child(root, 'preview').text, output.slice(0, 3978));
    assert.match(
      child(root, 'message').text,
      /The first page is below; read the rest with read_fd\(fd="fd:1", start=2\) to start=7, search it with search_fd, or write it to a file/,
    );
  });

  it('for every page size, limit and text: the reply is shorter than the text, the preview is its start, and every read named works', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Kind>('tool_output', 'user_input'),
        anyText,
        pageSizes,
        limits,
        async (kind, text, pageSize, limit) => {
          await checkReply(kind, text, pageSize, limit);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the text itself, still stored, when it is shorter than any reply about it', () => {
    const { text, descriptor } = wrap('user_input', 'a short message', 4000, 5);
    assert.equal(text, 'a short message');
    assert.equal(memoryText(descriptor), 'a short message');
  });
});
