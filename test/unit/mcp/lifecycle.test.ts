import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { attribute, callOk, connectMcp, mcpFolders } from '../../support/mcp/mcpServer';

describe('MCP server process: how it stops', function () {
  this.timeout(30_000);

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`stops once on ${signal}, after closing its session and giving up its lease`, async () => {
      const folders = mcpFolders();
      try {
        const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
        const id = attribute(await callOk(server.client, 'list_sessions'), 'current');
        await callOk(server.client, 'store_text', { text: '<ref id="kept">text written before the signal</ref>' });
        const lease = path.join(folders.store, 'sessions', id, 'lease.json');
        assert.ok(existsSync(lease), 'the running server holds a lease');
        process.kill(server.pid, signal);
        await server.ended;
        assert.ok(!existsSync(lease), `lease.json is left behind:\n${server.stderr()}`);
        assert.equal(server.stderr().match(/stopping/g)?.length, 1, server.stderr());
        assert.match(server.stderr(), new RegExp(`stopping \\(${signal}\\)`));
      } finally {
        folders.dispose();
      }
    });
  }

  it('stops once when the client closes the connection, and gives up its lease', async () => {
    const folders = mcpFolders();
    try {
      const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
      const id = attribute(await callOk(server.client, 'list_sessions'), 'current');
      await server.transport.close();
      await server.ended;
      assert.equal(server.stderr().match(/stopping/g)?.length, 1, server.stderr());
      assert.ok(!existsSync(path.join(folders.store, 'sessions', id, 'lease.json')), server.stderr());
    } finally {
      folders.dispose();
    }
  });
});
