import assert from 'node:assert/strict';
import { StructsApiEmulator, generateDataSet } from '../support/structsApi';

describe('Structs API emulator', () => {
  let api: StructsApiEmulator;
  before(async () => {
    api = await StructsApiEmulator.start({ players: 50 });
  });
  after(async () => {
    await api.close();
  });

  it('generates the same world for the same options', () => {
    assert.deepEqual([...generateDataSet({ players: 30 }).responses], [...generateDataSet({ players: 30 }).responses]);
  });

  it('links the world up: every non-empty ID field names an entity it serves (infusions and addresses aside)', () => {
    const world = generateDataSet({ players: 120 });
    const idPattern = /^(\d+)-(\d+)$/;
    for (const [id, body] of world.responses) {
      const walk = (value: unknown): void => {
        if (typeof value === 'string' && idPattern.test(value)) assert.ok(world.responses.has(value), `${id} refers to missing ${value}`);
        else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
      };
      walk(body);
    }
  });

  it('serves one entity wrapped under its type name, with 64-bit numbers as strings', async () => {
    const body = (await (await fetch(`${api.baseUrl}/structs/player/1-11`)).json()) as { Player: Record<string, unknown>; gridAttributes: Record<string, unknown> };
    assert.equal(body.Player['id'], '1-11');
    assert.equal(typeof body.gridAttributes['capacity'], 'string');
  });

  it('answers 404 with a JSON error for an unknown id, or an id of another kind', async () => {
    for (const path of ['planet/2-9999', 'planet/1-1']) {
      const response = await fetch(`${api.baseUrl}/structs/${path}`);
      assert.equal(response.status, 404);
      assert.match(((await response.json()) as { message: string }).message, /not found/);
    }
  });

  it('pages through a list with pagination.key and pagination.limit', async () => {
    const seen: string[] = [];
    let key = '';
    for (;;) {
      const page = (await (await fetch(`${api.baseUrl}/structs/guild?pagination.key=${encodeURIComponent(key)}&pagination.limit=2`)).json()) as {
        Guild: { id: string }[];
        pagination: { next_key: string | null; total: string };
      };
      seen.push(...page.Guild.map((guild) => guild.id));
      assert.equal(page.pagination.total, '5');
      if (page.pagination.next_key === null) break;
      key = page.pagination.next_key;
    }
    assert.deepEqual(seen, api.idsOf('guild'));
  });
});
