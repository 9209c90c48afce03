import assert from 'node:assert/strict';
import { attribute, callOk, connectMcp, mcpFolders, type Connected } from '../../support/mcp/mcpServer';

describe('MCP servers sharing one store', function () {
  this.timeout(60_000);

  it('two servers write their own sessions at once while a third reads both (session argument, list_sessions, resources)', async () => {
    const folders = mcpFolders();
    const servers: Connected[] = [];
    try {
      const [a, b, reader] = await Promise.all(
        ['writer-a', 'writer-b', 'reader'].map((name) =>
          connectMcp({ store: folders.store, workspaces: [folders.workspace], name }),
        ),
      );
      servers.push(a as Connected, b as Connected, reader as Connected);
      const ids = await Promise.all(
        servers.map(async (s) => attribute(await callOk(s.client, 'list_sessions'), 'current')),
      );
      const ROUNDS = 15;
      const write = async (server: Connected, label: string): Promise<string[]> => {
        const fds: string[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const [stored, run] = await Promise.all([
            callOk(server.client, 'store_text', { text: `<ref id="${label}">${label} round ${round}</ref>` }),
            callOk(server.client, 'run_command', { command: `seq 1 ${3000 + round}` }),
          ]);
          assert.match(stored, new RegExp(`version="${round}"`));
          fds.push(attribute(run, 'fd'));
        }
        return fds;
      };
      // The third reads both sessions while they are written.
      let reads = 0;
      let writing = true;
      const readWhileWriting = (async () => {
        while (writing) {
          for (const [label, id] of [
            ['a', ids[0]],
            ['b', ids[1]],
          ] as const) {
            const listed = await callOk(servers[2]!.client, 'list_refs', { session: id });
            if (listed.includes(`id="${label}"`)) {
              const got = await callOk(servers[2]!.client, 'get_ref', { id: label, session: id });
              assert.match(got, new RegExp(`${label} round \\d+`));
            }
            reads++;
          }
        }
      })();
      const [fdsA, fdsB] = await Promise.all([write(servers[0]!, 'a'), write(servers[1]!, 'b')]);
      writing = false;
      await readWhileWriting;
      assert.ok(reads > 0);

      const reading = servers[2]!.client;
      for (const [label, id, fds] of [
        ['a', ids[0], fdsA],
        ['b', ids[1], fdsB],
      ] as const) {
        assert.match(
          await callOk(reading, 'get_ref', { id: `${label}@1`, session: id }),
          new RegExp(`${label} round 1<`),
        );
        assert.match(
          await callOk(reading, 'get_ref', { id: label, session: id }),
          new RegExp(`${label} round ${ROUNDS}<`),
        );
        const last = fds[fds.length - 1] as string;
        const tail = await callOk(reading, 'read_fd', { fd: last, mode: 'tail', count: 1, session: id });
        assert.match(tail, new RegExp(`>${3000 + ROUNDS}\\n<`));
        const resource = await reading.readResource({ uri: `fdref://${id}/ref/${label}` });
        const first = resource.contents[0];
        assert.ok(first && 'text' in first && first.text === `${label} round ${ROUNDS}`);
      }
      const list = await callOk(reading, 'list_sessions');
      for (const id of ids) assert.match(list, new RegExp(`<session id="${id}"`));
      assert.match(
        list,
        new RegExp(`<session id="${ids[0]}" name="writer-a [^"]*" created="[^"]*" fds="${ROUNDS}" refs="1"`),
      );
      // The reader wrote nothing into the sessions it read.
      assert.match(list, new RegExp(`<session id="${ids[2]}" name="reader [^"]*" created="[^"]*" fds="0" refs="0"`));
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      folders.dispose();
    }
  });
});
