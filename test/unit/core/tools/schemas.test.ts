import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Session } from '../../../../src/core';
import { CLIENT_ADDED_ARGUMENTS, toolInputJsonSchema } from '../../../../src/core/tools/schemas';
import { toolDefinition, TOOLS } from '../../../../src/core/tools/toolTable';
import { listSessionsInput } from '../../../../src/mcp/sessionTools';
import { foreignKeywords } from '../../support/jsonSchema';
import { parseXml } from '../../support/xml';

describe('published tool schemas', () => {
  it('hold only JSON Schema keywords, on every surface (chat, MCP, the manifest Copilot reads)', () => {
    const schemas: [string, unknown][] = [];
    for (const record of TOOLS) {
      for (const sessionArgument of [false, true])
        schemas.push([
          `${record.name} (session ${sessionArgument})`,
          toolDefinition(record, { sessionArgument, inlineChars: 8000 }).inputSchema,
        ]);
    }
    schemas.push(['list_sessions', toolInputJsonSchema(listSessionsInput)]);
    const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../package.json'), 'utf8')) as {
      contributes: { languageModelTools: { name: string; inputSchema: unknown }[] };
    };
    for (const tool of manifest.contributes.languageModelTools)
      schemas.push([`package.json ${tool.name}`, tool.inputSchema]);
    assert.ok(schemas.length > 20);
    assert.deepEqual(
      schemas.flatMap(([name, schema]) => foreignKeywords(schema, name)),
      [],
    );
  });

  it('still say integer and boolean where strings are accepted too', () => {
    const schema = toolDefinition(
      TOOLS.find((t) => t.name === 'read_fd')!,
      { inlineChars: 8000 },
    ).inputSchema as {
      properties: Record<string, { type?: string; anyOf?: unknown }>;
    };
    assert.equal(schema.properties['start']?.type, 'integer');
    assert.equal(schema.properties['read_all']?.type, 'boolean');
    assert.equal(schema.properties['start']?.anyOf, undefined);
  });

  it('the walker finds a keyword of our own, nested', () => {
    assert.deepEqual(
      foreignKeywords(
        { type: 'object', properties: { a: { anyOf: [{ type: 'integer', fdrefLenient: 'integer' }] } } },
        's',
      ),
      ['s.properties.a.anyOf[0]: fdrefLenient'],
    );
  });
});

describe('arguments a client adds to every call', () => {
  const TEXT = 'line one\nline two\n';
  function session(): Session {
    const s = new Session({ maxDirectOutputChars: 0 });
    s.wrapToolOutput('shell', TEXT);
    s.ingestAssistantMessage('<ref id="a">x</ref>');
    return s;
  }

  it("lists Gemini CLI's wait_for_previous", () => {
    assert.ok(CLIENT_ADDED_ARGUMENTS.includes('wait_for_previous'));
  });

  it('are dropped silently by every tool of the chat, whatever their value (the MCP test calls the others): the call answers as without them', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['read_fd', { fd: 'fd:1' }],
      ['read_fd', { fd: 'fd:1', mode: 'line', start: 2, count: '1' }],
      ['search_fd', { fd: 'fd:1', pattern: 'two' }],
      ['list_refs', {}],
      ['get_ref', { id: 'a' }],
      ['list_fds', {}],
    ];
    const s = session();
    for (const value of [true, false, 'true', null, { nested: 1 }]) {
      for (const [tool, args] of calls) {
        const plain = await s.callTool(tool, args);
        const added = await s.callTool(tool, { ...args, wait_for_previous: value });
        assert.equal(added, plain, `${tool} with wait_for_previous ${JSON.stringify(value)}`);
        assert.doesNotMatch(added, /fd_error/, tool);
      }
    }
  });

  it('are dropped by fd_to_file, its preview and its write', async () => {
    const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-client-args-')));
    try {
      const s = new Session({ workspaceRoots: [root], maxDirectOutputChars: 0 });
      s.wrapToolOutput('shell', TEXT);
      const args = { fd: 'fd:1', file_path: 'out.txt', wait_for_previous: true };
      const preview = await s.previewWrite(args);
      assert.equal(preview.target, path.join(root, 'out.txt'));
      const written = parseXml(await s.callTool('fd_to_file', args));
      assert.notEqual(written.name, 'fd_error', written.text);
      assert.equal(readFileSync(path.join(root, 'out.txt'), 'utf8'), TEXT);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('leave any other unknown argument refused, named alone', async () => {
    const error = parseXml(await session().callTool('read_fd', { fd: 'fd:1', wait_for_previous: true, lines: 3 }));
    assert.equal(error.attributes['type'], 'invalid_argument');
    assert.match(error.text, /unknown argument "lines"/);
    assert.doesNotMatch(error.text, /wait_for_previous/);
  });
});
