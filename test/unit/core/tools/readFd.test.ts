import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Session } from '../../../../src/core';
import { nodeFileSystem } from '../../../../src/core/files/fileSystemPort';
import { child, parseXml } from '../../support/xml';
import { awkwardText } from '../../support/arbitraries';
import { toolsOn } from '../../../../src/core/tools/toolTable';

/** A session whose fd:1 holds `text`, paged with `pageSize`. */
function sessionWith(text: string, pageSize = 10): Session {
  const session = new Session({ pageSize, maxDirectOutputChars: 0 });
  session.wrapToolOutput('shell', text);
  return session;
}

async function read(session: Session, args: unknown, resultChars?: number) {
  const environment =
    resultChars === undefined ? undefined : { workspaceRoots: [], fileSystem: nodeFileSystem, resultChars };
  return parseXml(await session.callTool('read_fd', args, environment));
}

const TEXT = 'line one\nline two\nline three\nline four\n'; // 39 chars, 4 lines, pages of 10: 9, 9, 10, 1, 10

describe('read_fd', () => {
  it('reads the first page by default, with its position', async () => {
    const page = await read(sessionWith(TEXT), { fd: 'fd:1' });
    assert.equal(page.name, 'fd_content');
    assert.equal(page.text, 'line one\n');
    assert.deepEqual(page.attributes, {
      fd: 'fd:1',
      page: '1',
      pages: '5',
      continued: 'false',
      truncated: 'false',
      lines: '1-1',
      total_lines: '4',
    });
  });

  it('marks pages that start or end mid-line', async () => {
    const session = sessionWith('abcdefghijklmnopqrstuvwxyz\nshort\n', 10);
    const second = await read(session, { fd: 'fd:1', start: 2 });
    assert.equal(second.text, 'klmnopqrst');
    assert.equal(second.attributes['continued'], 'true');
    assert.equal(second.attributes['truncated'], 'true');
    assert.equal(second.attributes['lines'], '1-1');
  });

  it('clamps a page range that runs past the end', async () => {
    const pages = await read(sessionWith(TEXT), { fd: 'fd:1', start: 4, count: 10 });
    assert.equal(pages.attributes['page'], '4-5');
    assert.equal(pages.text, '\nline four\n');
  });

  it('names the valid pages when the start is outside them', async () => {
    const error = await read(sessionWith(TEXT), { fd: 'fd:1', start: 9 });
    assert.equal(error.name, 'fd_error');
    assert.equal(error.attributes['type'], 'invalid_range');
    assert.equal(error.attributes['fd'], 'fd:1');
    assert.match(error.text, /valid pages are 1-5/);
    assert.equal((await read(sessionWith(TEXT), { fd: 'fd:1', start: 0 })).attributes['type'], 'invalid_range');
  });

  it('rejects a count below 1', async () => {
    for (const mode of ['page', 'line', 'char']) {
      const error = await read(sessionWith(TEXT), { fd: 'fd:1', mode, start: 1, count: 0 });
      assert.equal(error.attributes['type'], 'invalid_argument', mode);
      assert.match(error.text, /count must be 1 or more/);
    }
  });

  it('accepts numbers and booleans sent as strings', async () => {
    const page = await read(sessionWith(TEXT), { fd: 'fd:1', start: '2', count: ' 1 ', read_all: 'false' });
    assert.equal(page.text, 'line two\n');
  });

  it('rejects arguments of the wrong kind with a message naming them', async () => {
    const error = await read(sessionWith(TEXT), { fd: 'fd:1', start: 'two', bogus: 1 });
    assert.equal(error.attributes['type'], 'invalid_argument');
    assert.match(error.text, /start: must be a whole number \(got "two"\)/);
    assert.match(error.text, /unknown argument "bogus"/);
    const missing = await read(sessionWith(TEXT), {});
    assert.match(missing.text, /fd: is required/);
    assert.equal((await read(sessionWith(TEXT), { fd: 'fd:1', mode: 'word' })).attributes['type'], 'invalid_argument');
  });

  it('reads lines in line mode and says the mode, start and count', async () => {
    const lines = await read(sessionWith(TEXT), { fd: 'fd:1', mode: 'line', start: 2, count: 2 });
    assert.equal(lines.text, 'line two\nline three\n');
    assert.equal(lines.attributes['mode'], 'line');
    assert.equal(lines.attributes['start'], '2');
    assert.equal(lines.attributes['count'], '2');
    assert.equal(lines.attributes['lines'], '2-3');
    const clamped = await read(sessionWith(TEXT), { fd: 'fd:1', mode: 'line', start: 4, count: 5 });
    assert.equal(clamped.text, 'line four\n');
    assert.equal(clamped.attributes['count'], '1');
  });

  it('reads as many whole lines as fit in a page when line mode has no count', async () => {
    const lines = await read(sessionWith(TEXT, 20), { fd: 'fd:1', mode: 'line', start: 1 });
    assert.equal(lines.text, 'line one\nline two\n');
    const long = await read(sessionWith('a very long first line\nb\n', 5), { fd: 'fd:1', mode: 'line', start: 1 });
    assert.equal(long.text, 'a very long first line\n');
  });

  it('names the valid lines when the start is outside them', async () => {
    const error = await read(sessionWith(TEXT), { fd: 'fd:1', mode: 'line', start: 5 });
    assert.equal(error.attributes['type'], 'invalid_range');
    assert.match(error.text, /valid lines are 1-4/);
  });

  it('reads characters in char mode, one page by default', async () => {
    const chars = await read(sessionWith(TEXT), { fd: 'fd:1', mode: 'char', start: 5, count: 8 });
    assert.equal(chars.text, 'one\nline');
    assert.equal(chars.attributes['continued'], 'true');
    assert.equal(chars.attributes['truncated'], 'true');
    assert.equal(chars.attributes['lines'], '1-2');
    const byDefault = await read(sessionWith(TEXT), { fd: 'fd:1', mode: 'char' });
    assert.equal(byDefault.text, TEXT.slice(0, 10));
    const error = await read(sessionWith(TEXT), { fd: 'fd:1', mode: 'char', start: 39 });
    assert.match(error.text, /valid offsets are 0-38/);
  });

  it('returns everything with read_all when it fits in one page', async () => {
    const all = await read(sessionWith(TEXT, 40), { fd: 'fd:1', read_all: true });
    assert.equal(all.text, TEXT);
    assert.equal(all.attributes['page'], 'all');
    assert.equal(all.attributes['pages'], '1');
  });

  it('gives read_all of more than a page in a one-page budget its first page and how to read the rest', async () => {
    const all = await read(sessionWith(TEXT), { fd: 'fd:1', read_all: true }, 0);
    assert.equal(all.name, 'fd_content');
    assert.equal(child(all, 'content').text, 'line one\n');
    assert.equal(all.attributes['page'], '1');
    assert.equal(all.attributes['pages'], '5');
    assert.match(child(all, 'message').text, /longer than one page.*read_fd\(fd="fd:1", start=2\) to start=5/);
  });

  it('returns read_all of a 9,000-character descriptor whole within the budget of the surface (seed contract)', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${String(i + 1).padStart(4, '0')} ${'x'.repeat(19)}`).join(
      '\n',
    );
    assert.equal(text.length, 8999);
    const session = new Session({ maxDirectOutputChars: 0 });
    session.wrapToolOutput('shell', text);
    for (const budget of [undefined, 40_000, 10_000]) {
      const all = await read(session, { fd: 'fd:1', read_all: true }, budget);
      assert.equal(all.name, 'fd_content', String(budget));
      assert.equal(all.text, text, `the whole content with a budget of ${budget}`);
      assert.equal(all.attributes['page'], 'all');
    }
    // Past the budget: as many whole pages as fit, the handle and size first, then how to read the rest.
    const part = await read(session, { fd: 'fd:1', read_all: true }, 8000);
    assert.equal(part.attributes['page'], '1');
    assert.match(
      child(part, 'message').text,
      /^fd:1 is 8999 characters \(300 lines\), longer than the 7000 characters/,
    );
    assert.match(child(part, 'message').text, /read_fd\(fd="fd:1", start=2\) to start=3/);
    const twoPages = await read(session, { fd: 'fd:1', read_all: true }, 9000);
    assert.equal(twoPages.attributes['page'], '1-2');
    assert.equal(child(twoPages, 'content').text, text.slice(0, child(twoPages, 'content').text.length));
    assert.ok(child(twoPages, 'content').text.length > 4000 && child(twoPages, 'content').text.length <= 8000);
    assert.match(child(twoPages, 'message').text, /pages 1-2 of 3 are here.*read_fd\(fd="fd:1", start=3\)/);
  });

  it('extracts all of a content with read_all and extract_to_new_fd, whatever the budget', async () => {
    const text = 'row\n'.repeat(5000);
    const session = new Session({ maxDirectOutputChars: 0 });
    session.wrapToolOutput('shell', text);
    const result = await read(session, { fd: 'fd:1', read_all: true, extract_to_new_fd: true }, 0);
    assert.equal(result.attributes['new_fd'], 'fd:2');
    assert.equal(result.attributes['chars'], String(text.length));
    const extracted = await read(session, { fd: 'fd:2', read_all: true }, 100_000);
    assert.equal(extracted.text, text);
  });

  it('reads an empty descriptor as one empty page', async () => {
    const session = new Session();
    session.ingestAssistantMessage('<ref id="empty"></ref>');
    const page = await read(session, { fd: 'ref:empty' });
    assert.equal(page.text, '');
    assert.equal(page.attributes['pages'], '1');
    assert.equal(page.attributes['total_lines'], '0');
  });

  it('extracts a selection into a new descriptor', async () => {
    const session = sessionWith(TEXT);
    const result = await read(session, { fd: 'fd:1', mode: 'line', start: 2, count: 2, extract_to_new_fd: true });
    assert.equal(result.name, 'fd_extraction');
    assert.equal(result.attributes['source_fd'], 'fd:1');
    assert.equal(result.attributes['new_fd'], 'fd:2');
    assert.match(child(result, 'message').text, /fd:2/);
    assert.equal(
      (await read(session, { fd: 'fd:2', mode: 'line', start: 1, count: 2 })).text,
      'line two\nline three\n',
    );
    assert.equal(session.getDescriptor('fd:2')?.source, 'extract');
    assert.equal(session.getDescriptor('fd:2')?.extractedFrom, 'fd:1');
  });

  it('lists the ids that exist, in natural order, when the id is unknown', async () => {
    const session = new Session({ maxDirectOutputChars: 1 });
    for (let i = 0; i < 10; i++) session.wrapToolOutput('shell', `output ${i}`);
    session.ingestAssistantMessage('<ref id="b10">x</ref><ref id="b2">y</ref>');
    const error = await read(session, { fd: 'fd:11' });
    assert.equal(error.attributes['type'], 'not_found');
    assert.match(error.text, /"fd:11" does not exist\. Available: fd:1, fd:2, fd:3, .*fd:9, fd:10, ref:b2, ref:b10\./);
    assert.match((await read(session, { fd: '3' })).text, /Ids look like "fd:1" or "ref:name"/);
  });

  it('reads refs and their earlier versions wherever fd ids work', async () => {
    const session = new Session();
    session.ingestAssistantMessage('<ref id="x">first</ref> and <ref id="x">second</ref>');
    assert.equal((await read(session, { fd: 'ref:x' })).text, 'second');
    assert.equal((await read(session, { fd: 'ref:x@1' })).text, 'first');
    assert.equal((await read(session, { fd: 'ref:x@2' })).attributes['fd'], 'ref:x');
    assert.equal((await read(session, { fd: 'ref:x@3' })).attributes['type'], 'not_found');
  });

  it('answers an unknown tool with an error naming the tools', async () => {
    const error = parseXml(await new Session().callTool('rm_rf', {}));
    assert.equal(error.name, 'fd_error');
    const names = toolsOn('chat')
      .filter((t) => t.effect !== 'run')
      .map((t) => t.name);
    assert.equal(error.text.trim(), `Unknown tool "rm_rf". The tools are ${names.join(', ')}.`);
    assert.ok(names.includes('read_fd') && names.includes('fd_to_file'));
  });

  it('gives back content holding XML exactly', async () => {
    const nasty = '<fd_content>\n</fd_content>]]>&amp;\r\n';
    const page = await read(sessionWith(nasty, 100), { fd: 'fd:1' });
    assert.equal(page.text, nasty);
  });

  it('answers every call, good or bad, with well-formed XML', async () => {
    const args = fc.record(
      {
        fd: fc.constantFrom('fd:1', 'fd:2', 'ref:a', 'ref:a@1', 'ref:<x>', 'fd:0', '"&'),
        mode: fc.constantFrom('page', 'line', 'char', 'tail', 'bad'),
        start: fc.oneof(fc.integer({ min: -2, max: 30 }), fc.constantFrom('3', 'x')),
        count: fc.integer({ min: -1, max: 30 }),
        read_all: fc.boolean(),
        extract_to_new_fd: fc.boolean(),
        id: fc.constantFrom('a', 'ref:a', 'nope', '<'),
        pattern: fc.constantFrom('a', 'line', '(', '.*', '\\', '', '<&>'),
        regex: fc.boolean(),
        context: fc.integer({ min: -1, max: 12 }),
        max_results: fc.integer({ min: 0, max: 3 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        awkwardText,
        fc.constantFrom('read_fd', 'search_fd', 'list_refs', 'get_ref', 'nope'),
        args,
        async (text, tool, toolArgs) => {
          const session = sessionWith(text, 7);
          session.ingestAssistantMessage(`<ref id="a">${text.replace(/<|`|~/g, '')}</ref>`);
          parseXml(await session.callTool(tool, toolArgs));
        },
      ),
      { numRuns: 400 },
    );
  });
});
