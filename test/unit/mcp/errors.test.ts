import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Store } from '../../../src/core/store';
import { encodeRecord } from '../../../src/core/store/journal';
import {
  attribute,
  callError,
  callOk,
  connectMcp,
  mcpFolders,
  type Connected,
  type McpFolders,
} from '../../support/mcp/mcpServer';

/** A session of `store` made as the chat would, holding `fd:1`; its id. */
async function chatSession(store: Store, name: string): Promise<string> {
  const writer = await store.create({ name, origin: { kind: 'chat' } });
  await writer.addDescriptor(
    { source: 'user_input', createdAt: new Date().toISOString() },
    await writer.putContent(name),
  );
  await writer.close();
  return writer.id;
}

describe('MCP server: errors that say what went wrong, short (dist/mcp.js, SDK client)', function () {
  this.timeout(30_000);
  let folders: McpFolders;
  let server: Connected;
  let store: Store;
  before(async () => {
    folders = mcpFolders();
    server = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
    store = await Store.open(folders.store);
  });
  after(async () => {
    await server.close();
    folders.dispose();
  });

  it('refuses a command longer than one argument may be, saying the limit (not spawn E2BIG)', async () => {
    const text = await callError(server.client, 'run_command', { command: `echo ${'x'.repeat(140_000)}` });
    assert.match(
      text,
      /type="invalid_argument".*command: is 140,005 bytes, more than the 131,071 the system takes; write a longer script to a file/s,
    );
    assert.ok(text.length < 500, `${text.length} characters`);
  });

  it('refuses a cwd too long for the system in a short message, without echoing it', async () => {
    const long = await callError(server.client, 'run_command', { command: 'true', cwd: 'a/'.repeat(4_500_000) });
    assert.match(long, /cwd: is 9,000,000 bytes, more than the 4,095 the system takes/);
    const name = await callError(server.client, 'run_command', { command: 'true', cwd: 'b'.repeat(300) });
    assert.match(
      name,
      /type="invalid_argument".*cwd: "b{80}"… \(300 characters\) cannot be used: ENAMETOOLONG; give a folder inside/s,
    );
    for (const text of [long, name]) assert.ok(text.length < 500, `${text.length} characters`);
  });

  it("calls a reading tool's failure a read_error naming what could not be read: a missing content file, another session's invalid metadata", async () => {
    const stored = await callOk(server.client, 'store_text', { text: 'word '.repeat(3000) });
    const fd = attribute(stored, 'fd');
    const own = attribute(await callOk(server.client, 'list_sessions'), 'current');
    const content = path.join(folders.store, 'sessions', own, 'content');
    for (const file of readdirSync(content)) rmSync(path.join(content, file));
    const missing = await callError(server.client, 'read_fd', { fd, start: 2 });
    assert.match(
      missing,
      /^<fd_error type="read_error">read_fd failed: The content [0-9a-f]{32} is no longer in the store/,
    );

    const broken = await chatSession(store, 'broken meta');
    writeFileSync(
      path.join(folders.store, 'sessions', broken, 'meta.json'),
      '{"format":"fdref.storeSession","version":1}',
    );
    assert.match(
      await callError(server.client, 'read_fd', { fd: 'fd:1', session: broken }),
      new RegExp(
        `type="read_error">Session ${broken} cannot be read: Invalid session metadata: .* list_sessions lists it as unreadable\\.<`,
      ),
    );
  });

  it('refuses to write a descriptor whose record claims 2^33 characters, saying so', async () => {
    const id = await chatSession(store, 'claims too much');
    const folder = path.join(folders.store, 'sessions', id);
    const hash = (readdirSync(path.join(folder, 'content'))[0] as string).slice(0, 32);
    const huge = 2 ** 33;
    const record = { t: 'fd', n: 2, source: 'user_input', createdAt: new Date().toISOString() };
    appendFileSync(
      path.join(folder, 'journal.log'),
      encodeRecord({ ...record, c: { h: hash, enc: 'utf8', chars: huge, bytes: huge, lines: 1 } }),
    );
    const text = await callError(server.client, 'fd_to_file', { fd: 'fd:2', session: id, file_path: 'out.txt' });
    assert.match(
      text,
      /type="read_error" fd="fd:2">fd:2 is 8,589,934,592 characters by its record, more than can be written at once/,
    );
  });

  it('answers a resource URI with a malformed % escape, or a huge one, with a short error', async () => {
    const own = attribute(await callOk(server.client, 'list_sessions'), 'current');
    for (const uri of [`fdref://${own}/fd/%E0%A4%A`, `fdref://${own}/ref/%ZZ`, `fdref://%ZZ/fd/1`]) {
      await assert.rejects(server.client.readResource({ uri }), (error: Error & { code?: number }) => {
        assert.match(error.message, /has a malformed escape: a % must be followed by two hexadecimal digits/);
        assert.equal(error.code, -32602);
        return true;
      });
    }
    await assert.rejects(
      server.client.readResource({ uri: `fdref://${'u'.repeat(900_000)}/fd/1` }),
      (error: Error & { data?: unknown }) => {
        assert.match(error.message, /There is no session "u{80}"… \(900000 characters\)/);
        assert.ok(JSON.stringify({ message: error.message, data: error.data }).length < 3000);
        return true;
      },
    );
  });
});
