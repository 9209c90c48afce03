import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Session } from '../../../../src/core';
import { headlineText, toolCallHeadline, type HeadlinePart } from '../../../../src/core/chat/toolSummary';
import { Content } from '../../../../src/core/descriptors/content';
import { nodeFileSystem } from '../../../../src/core/files/fileSystemPort';
import type { ToolCallRecord } from '../../../../src/core/session/transcript';
import { ToolError } from '../../../../src/core/toolError';
import { runCommandTool } from '../../../../src/core/tools/runCommand';

/** The record of a call as the chat keeps it. */
function record(name: string, args: object, status: ToolCallRecord['status'], result?: string): ToolCallRecord {
  return {
    callId: 'c1',
    name,
    arguments: JSON.stringify(args),
    status,
    ...(result === undefined ? {} : { result }),
  };
}

/** Runs a descriptor tool for real and gives the line its record reads as. */
async function lineOf(session: Session, name: string, args: object, root?: string): Promise<string> {
  const environment = root === undefined ? undefined : { workspaceRoots: [root], fileSystem: nodeFileSystem };
  const outcome = await session.runTool(name, args, environment);
  const parts = toolCallHeadline(record(name, args, outcome.ok ? 'done' : 'error', outcome.text));
  assert.ok(parts, 'a finished call has a line');
  return headlineText(parts);
}

describe('tool call headline', () => {
  const text = Array.from({ length: 500 }, (_, i) => `line ${i} foo bar`).join('\n');

  function sessionWithInput(): Session {
    const session = new Session({ pageSize: 1000 });
    session.pageUserInputAsDescriptor(text, 100); // fd:1, 500 lines in 9 pages
    return session;
  }

  it('read_fd: a page, pages, lines, the end, characters, all of a short one, an extract', async () => {
    const session = sessionWithInput();
    assert.equal(await lineOf(session, 'read_fd', { fd: 'fd:1', start: 2 }), 'Read fd:1 page 2 of 9');
    assert.equal(await lineOf(session, 'read_fd', { fd: 'fd:1', start: 2, count: 3 }), 'Read fd:1 pages 2–4 of 9');
    assert.equal(
      await lineOf(session, 'read_fd', { fd: 'fd:1', mode: 'line', start: 3, count: 4 }),
      'Read fd:1 lines 3–6 of 500',
    );
    assert.equal(
      await lineOf(session, 'read_fd', { fd: 'fd:1', mode: 'tail', count: 5 }),
      'Read the end of fd:1, lines 496–500 of 500',
    );
    assert.equal(
      await lineOf(session, 'read_fd', { fd: 'fd:1', mode: 'char', start: 10, count: 20 }),
      'Read 20 characters of fd:1 from 10',
    );
    assert.equal(await lineOf(session, 'read_fd', { fd: 'fd:1', read_all: true }), 'Read all of fd:1 (500 lines)');
    assert.equal(
      await lineOf(session, 'read_fd', { fd: 'fd:1', mode: 'line', start: 1, count: 3, extract_to_new_fd: true }),
      'Extracted lines 1–3 of fd:1 into fd:2',
    );
    assert.equal(await lineOf(session, 'read_fd', { fd: 'fd:2', read_all: true }), 'Read all of fd:2 (3 lines)');
  });

  it('search_fd: matches counted with separators, none, a regex, and a long result kept as a descriptor', async () => {
    const session = sessionWithInput();
    assert.equal(
      await lineOf(session, 'search_fd', { fd: 'fd:1', pattern: 'line 42 ' }),
      'Searched fd:1 for "line 42 ": 1 match',
    );
    assert.equal(
      await lineOf(session, 'search_fd', { fd: 'fd:1', pattern: 'absent' }),
      'Searched fd:1 for "absent": no matches',
    );
    assert.equal(
      await lineOf(session, 'search_fd', { fd: 'fd:1', pattern: '^line 4\\d$', regex: true }),
      'Searched fd:1 for /^line 4\\d$/: no matches',
    );
    const big = new Session({ pageSize: 1000 });
    big.pageUserInputAsDescriptor(Array.from({ length: 3000 }, (_, i) => `row ${i} foo`).join('\n'), 100);
    const parts = toolCallHeadline(
      record(
        'search_fd',
        { fd: 'fd:1', pattern: 'foo' },
        'done',
        (await big.runTool('search_fd', { fd: 'fd:1', pattern: 'foo' })).text,
      ),
    );
    assert.equal(headlineText(parts ?? []), 'Searched fd:1 for "foo": 3,000 matches, all results in fd:2');
    assert.deepEqual(parts?.at(-1), { fd: 'fd:2' }, 'the descriptor is a part the view makes a link');
  });

  it('refs: listed, read, and a descriptor of another session is text, not a link', async () => {
    const session = new Session({ pageSize: 1000 });
    session.ingestAssistantMessage('<ref id="hello">\nprint(1)\nprint(2)\n</ref>');
    assert.equal(await lineOf(session, 'list_refs', {}), 'Listed 1 ref');
    assert.equal(await lineOf(session, 'get_ref', { id: 'hello' }), 'Read ref:hello (2 lines)');
    const other = toolCallHeadline(
      record(
        'read_fd',
        { fd: 'fd:1', session: 'Terminal' },
        'done',
        '<fd_content fd="fd:1" page="1" pages="1">x</fd_content>',
      ),
    );
    assert.deepEqual(other?.[1], { text: 'fd:1' });
  });

  it('fd_to_file: the path as the user was shown it, the file to open, bytes with separators', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-summary-')));
    const session = new Session({ pageSize: 1000 });
    session.ingestAssistantMessage(`<ref id="hello">\n${'x'.repeat(1234)}\n</ref>`);
    const args = { fd: 'ref:hello', file_path: 'notes/hello.py' };
    const outcome = await session.runTool('fd_to_file', args, { workspaceRoots: [root], fileSystem: nodeFileSystem });
    const call: ToolCallRecord = {
      ...record('fd_to_file', args, 'done', outcome.text),
      confirmation: {
        source: 'ref:hello',
        path: 'notes/hello.py',
        mode: 'write',
        chars: 1234,
        bytes: 1234,
        replacesFile: false,
        fileExists: false,
      },
    };
    const parts = toolCallHeadline(call) as HeadlinePart[];
    assert.equal(headlineText(parts), 'Wrote notes/hello.py, 1,234 bytes');
    assert.deepEqual(parts[1], { file: path.join(root, 'notes', 'hello.py'), label: 'notes/hello.py' });
    const appended = await session.runTool(
      'fd_to_file',
      { ...args, mode: 'append' },
      { workspaceRoots: [root], fileSystem: nodeFileSystem },
    );
    assert.equal(
      headlineText(toolCallHeadline(record('fd_to_file', args, 'done', appended.text)) ?? []),
      `Appended 1,234 bytes to ${path.join(root, 'notes', 'hello.py')}`,
    );
  });

  it('run_command: exit code and where the output is, the command from the confirmation', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-summary-')));
    const run = async (command: string, inlineChars: number) => {
      const result = await runCommandTool(
        { command },
        {
          start: () => ({
            write: () => Promise.resolve(),
            abort: () => Promise.resolve(),
            keep: () => Promise.resolve({ id: 'fd:4', content: new Content('kept') }),
          }),
        },
        { roots: [root], inlineChars, pageSize: 1000, signal: new AbortController().signal },
      );
      return headlineText(toolCallHeadline(record('run_command', { command }, 'done', result.text)) ?? []);
    };
    assert.equal(await run('echo hi; exit 1', 1000), 'Ran `echo hi; exit 1`, exit 1, 3 characters of output');
    assert.equal(await run('true', 1000), 'Ran `true`, exit 0, no output');
    assert.equal(await run('seq 1 2000', 100), 'Ran `seq 1 2000`, exit 0, output in fd:4');
  });

  it('failures give their first line; denied and unanswered calls say so; running ones have no line', () => {
    const error = new ToolError('not_found', '"fd:9" does not exist.\nAvailable: fd:1 <and> more').toXml();
    assert.equal(
      headlineText(toolCallHeadline(record('read_fd', { fd: 'fd:9' }, 'error', error)) ?? []),
      'Failed: "fd:9" does not exist.',
    );
    const cdata = new ToolError('invalid_argument', 'pattern <a & b> is bad').toXml();
    assert.equal(
      headlineText(toolCallHeadline(record('search_fd', {}, 'error', cdata)) ?? []),
      'Failed: pattern <a & b> is bad',
    );
    assert.equal(
      headlineText(toolCallHeadline(record('x', {}, 'error', `${'long '.repeat(100)}\nsecond`)) ?? []).length,
      'Failed: '.length + 160,
    );
    const denied: ToolCallRecord = {
      ...record('run_command', { command: 'rm -rf build' }, 'denied', error),
      confirmation: { kind: 'command', command: 'rm -rf build', cwd: '/w', timeoutS: 10 },
    };
    assert.equal(headlineText(toolCallHeadline(denied) ?? []), 'Denied: run `rm -rf build`');
    assert.equal(
      headlineText(toolCallHeadline({ ...denied, status: 'error', unanswered: true }) ?? []),
      'Not answered, so it did not run',
    );
    assert.equal(toolCallHeadline(record('read_fd', {}, 'running')), undefined);
    assert.equal(toolCallHeadline(record('fd_to_file', {}, 'awaitingConfirmation')), undefined);
  });

  it('another tool: its name and where long output is; arguments that are not JSON do not matter', () => {
    assert.equal(
      headlineText(toolCallHeadline({ ...record('lookup', {}, 'done', 'x'.repeat(1200)), arguments: '{oops' }) ?? []),
      'Called lookup, 1,200 characters back',
    );
    assert.equal(
      headlineText(toolCallHeadline({ ...record('lookup', {}, 'done', '<fd_result/>'), descriptor: 'fd:7' }) ?? []),
      'Called lookup, output in fd:7',
    );
    assert.equal(
      headlineText(toolCallHeadline(record('structs_entity', { id: '2-1' }, 'done', '{}')) ?? []),
      'Looked up entity 2-1',
    );
  });

  it('reads only the start of a huge result', () => {
    const huge = `<fd_content fd="fd:1" page="1" pages="2">${'x'.repeat(5_000_000)}</fd_content>`;
    const started = performance.now();
    const unclosed = `<out a="${'y'.repeat(5_000_000)}`;
    for (let i = 0; i < 100; i++) {
      toolCallHeadline(record('read_fd', { fd: 'fd:1' }, 'done', huge));
      toolCallHeadline(record('other', {}, 'done', unclosed));
    }
    assert.ok(performance.now() - started < 200, 'each call must not scan the whole result');
  });
});
