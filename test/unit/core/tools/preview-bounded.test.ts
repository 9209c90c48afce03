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

/**
 * Checks that `preview` shows `text` as the preview builder lays it out: its start, then (when the text is longer
 * than what fits) the error and warning lines with their numbers, then its end, with the sizes the headers say;
 * or, when the budget is too small for headers, its start alone or its error lines alone.
 */
function checkPreview(preview: string, text: string): void {
  const clean = text.replace(NOT_XML_CHAR, '\uFFFD');
  const lines = clean.split('\n').map((line) => line.replace(/\r$/, ''));
  const checkErrorLines = (section: string): void => {
    for (const entry of section.split('\n')) {
      const match = /^(\d+): (.*?)(?: \(seen \d+ times\))?$/s.exec(entry);
      if (match === null) continue;
      const line = lines[Number(match[1]) - 1];
      assert.ok(line?.startsWith(match[2] ?? ''), `line ${match[1]} is ${JSON.stringify(line)}: ${entry}`);
    }
  };
  const head = /^--- first (\d+) characters ---\n/.exec(preview);
  if (head === null) {
    if (preview.startsWith('--- ') && /lines? that looks? like errors/.test(preview.split('\n')[0] ?? ''))
      checkErrorLines(preview);
    else assert.ok(clean.startsWith(preview), `the preview is the start of the text: ${JSON.stringify(preview)}`);
    return;
  }
  const headChars = Number(head[1]);
  const shownHead = preview.slice(head[0].length, head[0].length + headChars);
  assert.equal(shownHead, clean.slice(0, headChars), 'the head is the start of the text');
  const tail = /--- (\d+) characters not shown; last (\d+) characters ---\n/.exec(
    preview.slice(head[0].length + headChars),
  );
  assert.ok(tail, `a tail header: ${JSON.stringify(preview)}`);
  const [omitted, tailChars] = [Number(tail[1]), Number(tail[2])];
  assert.equal(headChars + omitted + tailChars, text.length, 'head, omitted and tail add up to the text');
  assert.ok(preview.endsWith(clean.slice(clean.length - tailChars)), 'the tail is the end of the text');
  checkErrorLines(preview.slice(head[0].length + headChars, preview.length - tailChars));
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
  checkPreview(preview, text);
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
      checkPreview(preview, message);
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

  it('leads with the handle, sizes and reads, then shows the start and the end within the limit', () => {
    const output = Array.from({ length: 1000 }, (_, i) => `row ${i + 1} of a long tool output`).join('\n') + '\n';
    const root = parseXml(wrap('tool_output', output, 4000, 8000).text);
    assert.equal(root.children[0]?.name, 'message', 'the message comes first');
    assert.equal(
      child(root, 'message').text,
      `fd:1 holds the whole output of shell: ${output.length} characters (1000 lines) in 8 pages. ` +
        'Read it with read_fd(fd="fd:1", start=1) to start=8, search it with search_fd(fd="fd:1", pattern=...), ' +
        'or write it to a file with fd_to_file. Below are its first lines, any lines that look like errors or ' +
        'warnings (with their line numbers), and its last lines.',
    );
    const preview = child(root, 'preview').text;
    assert.ok(preview.length <= 8000 && preview.length > 7000, `${preview.length} characters of preview`);
    assert.match(preview, /^--- first \d+ characters ---\nrow 1 of a long tool output\n/);
    assert.ok(preview.endsWith('row 1000 of a long tool output\n'));
    assert.ok(!preview.includes('row 500 of'), 'the middle is left out');
    checkPreview(preview, output);
  });

  it('shows a long terminal output with the failing command in the middle, its line numbered', () => {
    const lines = ['$ make -j2 all'];
    for (let n = 1; n <= 400; n++) lines.push(`  CC      drivers/net/phy/module${n}.o`);
    lines.push('drivers/net/phy/broken.c:88:5: error: implicit declaration of function ‘phy_foo’');
    lines.push('make[2]: *** [drivers/net/phy/broken.o] Error 1');
    for (let n = 401; n <= 800; n++) lines.push(`  CC      drivers/net/phy/module${n}.o`);
    lines.push('make: *** [all] Error 2', '$ ');
    const output = lines.join('\n');
    const root = parseXml(wrap('tool_output', output, 4000, 4000).text);
    const preview = child(root, 'preview').text;
    assert.ok(preview.length <= 4000);
    assert.match(preview, /\n402: drivers\/net\/phy\/broken\.c:88:5: error: implicit declaration/);
    assert.match(preview, /\n403: make\[2\]: \*\*\* \[drivers\/net\/phy\/broken\.o\] Error 1\n/);
    assert.match(preview, /^--- first \d+ characters ---\n\$ make -j2 all\n/);
    assert.ok(preview.endsWith('make: *** [all] Error 2\n$ '));
    checkPreview(preview, output);
  });

  it('shows a long pasted text as the start and end of the user message, and a warning in it', () => {
    const paragraphs = Array.from(
      { length: 120 },
      (_, i) => `Paragraph ${i + 1}. The meeting notes go on about the roadmap and the budget for the quarter.`,
    );
    paragraphs[60] = 'WARNING: the figures below are from the draft, not the final report.';
    const pasted = paragraphs.join('\n\n');
    const root = parseXml(wrap('user_input', pasted, 4000, 3000).text);
    assert.equal(root.name, 'fd_user_input');
    assert.deepEqual(
      { ...root.attributes },
      { fd: 'fd:1', chars: String(pasted.length), lines: '239', pages: String(root.attributes['pages']) },
    );
    assert.match(
      child(root, 'message').text,
      /^fd:1 holds the whole of the user's message: \d+ characters \(239 lines\)/,
    );
    const preview = child(root, 'preview').text;
    assert.ok(preview.length <= 3000);
    assert.match(preview, /^--- first \d+ characters ---\nParagraph 1\. /);
    assert.match(preview, /\n121: WARNING: the figures below are from the draft/);
    assert.ok(
      preview.endsWith('Paragraph 120. The meeting notes go on about the roadmap and the budget for the quarter.'),
    );
    checkPreview(preview, pasted);
  });

  it('for every page size, limit and text: the reply is shorter than the text, the preview shows its start and end, and every read named works', async () => {
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
