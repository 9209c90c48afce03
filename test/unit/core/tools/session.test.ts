import assert from 'node:assert/strict';
import { Session } from '../../../../src/core';
import { Content } from '../../../../src/core/descriptors/content';
import { DescriptorTable } from '../../../../src/core/descriptors/descriptorTable';
import { runTool, toolDefinition, TOOLS } from '../../../../src/core/tools/toolTable';
import { readFdInput } from '../../../../src/core/tools/schemas';
import { schemaFor } from '../../../../src/core/tools/sessionArgument';
import { tableToolSession } from '../../../../src/core/tools/tableToolSession';
import { ToolError } from '../../../../src/core/toolError';
import type { ToolContext, ToolSession } from '../../../../src/core/tools/toolContext';
import { nodeFileSystem } from '../../../../src/core/files/fileSystemPort';
import { child, parseXml } from '../../support/xml';
import { descriptorText } from '../../../support/descriptorText';

/** Two in-memory sessions: `mine` (fd:1 "mine") and `other` (fd:1 "theirs", ref:shared); the context reads both. */
function twoSessions(): { context: ToolContext; mine: DescriptorTable; other: DescriptorTable } {
  const mine = new DescriptorTable();
  mine.createFd('tool_output', new Content('mine\n'), { toolName: 'shell' });
  const other = new DescriptorTable();
  other.createFd('tool_output', new Content('theirs one\ntheirs two\n'), { toolName: 'shell' });
  other.addRef('shared', new Content('shared text'), 'ts');
  const sessions = new Map<string, ToolSession>([['other-session', tableToolSession(other)]]);
  const context: ToolContext = {
    session: tableToolSession(mine),
    pageSize: 1000,
    workspaceRoots: [],
    fileSystem: nodeFileSystem,
    openSession: (id) => {
      const found = sessions.get(id);
      if (found === undefined) return Promise.reject(new ToolError('not_found', `There is no session "${id}".`));
      return Promise.resolve(found);
    },
  };
  return { context, mine, other };
}

describe('tools over a ToolSession', () => {
  it('read another session named by the session argument, and put what they create in their own', async () => {
    const { context, mine, other } = twoSessions();
    const theirs = parseXml((await runTool(context, 'read_fd', { fd: 'fd:1', session: 'other-session' })).text);
    assert.equal(theirs.text, 'theirs one\ntheirs two\n');
    const own = parseXml((await runTool(context, 'read_fd', { fd: 'fd:1' })).text);
    assert.equal(own.text, 'mine\n');
    const found = parseXml(
      (await runTool(context, 'search_fd', { fd: 'fd:1', pattern: 'two', session: 'other-session' })).text,
    );
    assert.equal(found.attributes['matches'], '1');
    const refs = parseXml((await runTool(context, 'list_refs', { session: 'other-session' })).text);
    assert.equal(refs.attributes['count'], '1');
    const ref = parseXml((await runTool(context, 'get_ref', { id: 'shared', session: 'other-session' })).text);
    assert.equal(ref.text, 'shared text');

    const extract = await runTool(context, 'read_fd', {
      fd: 'fd:1',
      session: 'other-session',
      mode: 'line',
      start: 2,
      extract_to_new_fd: true,
    });
    assert.equal(parseXml(extract.text).attributes['new_fd'], 'fd:2');
    assert.equal(await descriptorText(mine.lookup('fd:2')), 'theirs two\n');
    assert.equal(mine.lookup('fd:2')?.extractedFrom, undefined, 'an id of another session would name the wrong fd');
    assert.equal(other.lookup('fd:2'), undefined, 'the other session is never written');
  });

  it('answer an unknown session with its error, and refuse the argument where no other session can be opened', async () => {
    const { context } = twoSessions();
    const missing = await runTool(context, 'read_fd', { fd: 'fd:1', session: 'nope' });
    assert.equal(missing.ok, false);
    assert.match(missing.text, /There is no session "nope"/);
    const chat = new Session();
    const refused = parseXml(await chat.callTool('list_refs', { session: 'other-session' }));
    assert.equal(refused.attributes['type'], 'invalid_argument');
    assert.match(refused.text, /unknown argument "session"/);
  });

  it('show the session argument in their schemas only when asked', () => {
    const session = (tool: (typeof TOOLS)[number], sessionArgument: boolean) =>
      (
        toolDefinition(tool, { sessionArgument, inlineChars: 8000 }).inputSchema as {
          properties: Record<string, { type: string } | undefined>;
        }
      ).properties['session'];
    const reading = TOOLS.filter((t) => t.sessionArgument).map((t) => t.name);
    assert.ok(reading.includes('read_fd') && reading.includes('list_fds') && !reading.includes('run_command'));
    for (const tool of TOOLS) {
      assert.equal(session(tool, true)?.type, tool.sessionArgument ? 'string' : undefined, tool.name);
      // search_fd's own session names what fd="*" searches, also where no other session can be opened.
      assert.equal(session(tool, false)?.type, tool.name === 'search_fd' ? 'string' : undefined, tool.name);
    }
  });

  it('give a ref longer than a page its first page and how to read the rest', async () => {
    const session = new Session({ pageSize: 20 });
    const text = Array.from({ length: 10 }, (_, i) => `row ${i + 1}`).join('\n');
    session.ingestAssistantMessage(`<ref id="big">${text}</ref>`);
    const onePage = { workspaceRoots: [], fileSystem: nodeFileSystem, resultChars: 0 };
    assert.equal(parseXml(await session.callTool('get_ref', { id: 'big' })).text, text, 'whole within the budget');
    const root = parseXml(await session.callTool('get_ref', { id: 'big' }, onePage));
    assert.equal(root.name, 'ref_content');
    assert.equal(root.attributes['page'], '1');
    assert.equal(root.attributes['chars'], String(text.length));
    assert.equal(child(root, 'content').text, 'row 1\nrow 2\nrow 3\n');
    assert.match(
      child(root, 'message').text,
      /ref:big is \d+ characters .* read_fd\(fd="ref:big", start=2\) to start=\d/,
    );
    const small = parseXml(await new Session({ pageSize: 20 }).callTool('list_refs', {}));
    assert.equal(small.attributes['count'], '0');
  });
});

describe('the session argument', () => {
  it('is added to a tool schema once, not on every call (zod extend costs more than a page read)', () => {
    const context = { openSession: () => Promise.reject(new Error('unused')) };
    const first = schemaFor(readFdInput, context);
    assert.equal(schemaFor(readFdInput, context), first);
    assert.ok(first.safeParse({ fd: 'fd:1', session: 'other' }).success);
    assert.equal(schemaFor(readFdInput, {}), readFdInput);
  });
});
