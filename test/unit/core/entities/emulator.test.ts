import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { entityTypeOfId } from '../../../../src/core/entities/entityTypes';
import { useStructsApi } from '../../../support/mochaHooks';
import { NOT_FOUND_BODY, NOT_FOUND_STATUS, SERVED_KINDS, generateDataSet } from '../../../support/structsApi';

const FIXTURES = path.resolve(path.resolve(__dirname, '../..'), '../fixtures/structs');

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));
}

/** Enum fields and their values, from structsd's keys.proto; the gateway writes enums by name. */
const ENUMS: Record<string, readonly string[]> = {
  'Guild.joinInfusionMinimumBypassByRequest': ['closed', 'permissioned', 'member'],
  'Guild.joinInfusionMinimumBypassByInvite': ['closed', 'permissioned', 'member'],
  'Planet.status': ['active', 'complete'],
  'Fleet.status': ['onStation', 'away'],
  'Fleet.locationType': [
    'guild',
    'player',
    'planet',
    'reactor',
    'substation',
    'struct',
    'allocation',
    'infusion',
    'address',
    'fleet',
    'provider',
    'agreement',
  ],
  'Struct.locationType': [
    'guild',
    'player',
    'planet',
    'reactor',
    'substation',
    'struct',
    'allocation',
    'infusion',
    'address',
    'fleet',
    'provider',
    'agreement',
  ],
  'Struct.operatingAmbit': ['none', 'water', 'land', 'air', 'space', 'local'],
  'Allocation.type': ['static', 'dynamic', 'automated', 'providerAgreement'],
  'Provider.accessPolicy': ['openMarket', 'guildMarket', 'closedMarket'],
};

/** Reference fields whose target's type varies (a struct sits on a planet or in a fleet; allocations draw from reactors, substations, ...). */
const ANY_ENTITY_FIELDS: ReadonlySet<string> = new Set([
  'Struct.locationId',
  'Fleet.locationId',
  'Allocation.sourceObjectId',
]);

/** What a string holds: an entity id of a type, a uint64, a decimal, an address, nothing, or text. */
function lexicalClass(value: string): string {
  const type = entityTypeOfId(value);
  if (type !== undefined) return `id:${type}`;
  if (value === '') return 'empty';
  if (/^\d+$/.test(value)) return 'uint64';
  if (/^\d+\.\d{18}$/.test(value)) return 'decimal';
  const address = /^(structs|structsvaloper)1[0-9a-z]{38}$/.exec(value);
  if (address) return `address:${address[1]}`;
  return 'text';
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/**
 * Where `actual` drifts from the real-shaped `expected`: the same keys in the same order at every level,
 * the same JSON types, and string by string the same kind of content. An id in `expected` allows an id of
 * the same type (any type in {@link ANY_ENTITY_FIELDS}) or `""` (no reference); `""` allows `""` or text, never an id; an array's elements must
 * each fit one of the fixture's elements.
 */
function driftOf(expected: unknown, actual: unknown, at: string): string[] {
  if (jsonType(expected) !== jsonType(actual))
    return [`${at}: ${jsonType(actual)} where the real API has ${jsonType(expected)}`];
  if (Array.isArray(expected)) {
    const items = actual as unknown[];
    if (expected.length === 0) return [];
    return items.flatMap((item, i) =>
      expected.some((model) => driftOf(model, item, at).length === 0)
        ? []
        : [`${at}[${i}]: ${JSON.stringify(item)} fits none of ${JSON.stringify(expected)}`],
    );
  }
  if (typeof expected === 'object' && expected !== null) {
    const wanted = Object.keys(expected);
    const got = Object.keys(actual as object);
    if (wanted.join() !== got.join())
      return [`${at}: keys ${JSON.stringify(got)} where the real API has ${JSON.stringify(wanted)}`];
    return wanted.flatMap((key) =>
      driftOf(
        (expected as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        at === '' ? key : `${at}.${key}`,
      ),
    );
  }
  if (typeof expected === 'string') {
    const want = lexicalClass(expected);
    const got = lexicalClass(actual as string);
    const enumValues = ENUMS[at];
    if (enumValues !== undefined && !enumValues.includes(actual as string))
      return [`${at}: ${JSON.stringify(actual)} is not one of ${enumValues.join(', ')}`];
    const bothIds = want.startsWith('id:') && got.startsWith('id:') && ANY_ENTITY_FIELDS.has(at);
    const fits =
      want === got || bothIds || (want.startsWith('id:') && got === 'empty') || (want === 'empty' && got === 'text');
    return fits
      ? []
      : [`${at}: ${JSON.stringify(actual)} (${got}) where the real API has ${JSON.stringify(expected)} (${want})`];
  }
  return [];
}

describe('Structs API emulator', () => {
  const api = useStructsApi({ players: 50 });

  describe('stays a faithful stand-in for a real node (test/fixtures/structs)', () => {
    for (const kind of SERVED_KINDS) {
      it(`answers every ${kind} in the shape of ${kind}.json`, () => {
        const expected = fixture(`${kind}.json`);
        const ids = api.idsOf(kind);
        assert.ok(ids.length > 0);
        const drift = ids.flatMap((id) =>
          driftOf(expected, api.responseFor(id), '').map((problem) => `${id} ${problem}`),
        );
        assert.deepEqual(drift.slice(0, 10), []);
      });
    }

    it('notices drift: a missing section, an extra field, a number, an address for an id, an enum by number', () => {
      const player = fixture('player.json') as { Player: Record<string, unknown>; gridAttributes: unknown };
      const drifted = (change: (body: Record<string, Record<string, unknown>>) => void): string[] => {
        const body = structuredClone(player) as Record<string, Record<string, unknown>>;
        change(body);
        return driftOf(player, body, '');
      };
      assert.notDeepEqual(
        drifted((body) => delete body['playerInventory']),
        [],
      );
      assert.notDeepEqual(
        drifted((body) => ((body['Player'] as Record<string, unknown>)['locked'] = 'false')),
        [],
      );
      assert.notDeepEqual(
        drifted((body) => ((body['Player'] as Record<string, unknown>)['guildRank'] = 101)),
        [],
      );
      assert.notDeepEqual(
        drifted((body) => ((body['gridAttributes'] as Record<string, unknown>)['ready'] = 'true')),
        [],
      );
      assert.notDeepEqual(
        drifted(
          (body) =>
            ((body['Player'] as Record<string, unknown>)['guildId'] = 'structs1q8z6g0lj5u9xa6e3wwv5ea0k7kh2v9xk8fz3ym'),
        ),
        [],
      );
      assert.notDeepEqual(
        drifted((body) => ((body['Player'] as Record<string, unknown>)['guildId'] = '4-1')),
        [],
      );
      assert.deepEqual(
        drifted((body) => ((body['Player'] as Record<string, unknown>)['guildId'] = '')),
        [],
        'an empty reference is real',
      );
      const planet = fixture('planet.json');
      const enumByNumber = structuredClone(planet) as { Planet: Record<string, unknown> };
      enumByNumber.Planet['status'] = 'PLANET_STATUS_ACTIVE';
      assert.notDeepEqual(driftOf(planet, enumByNumber, ''), []);
    });

    it('answers an id it lacks, or an id of another kind, as structsd does (not-found.json)', async () => {
      const expected = fixture('not-found.json') as { status: number; body: unknown };
      assert.deepEqual({ status: NOT_FOUND_STATUS, body: NOT_FOUND_BODY }, expected);
      for (const path of ['planet/2-9999', 'planet/1-1']) {
        const response = await fetch(`${api.baseUrl}/structs/${path}`);
        assert.equal(response.status, expected.status, path);
        assert.deepEqual(await response.json(), expected.body, path);
      }
    });

    it('holds the references a real body holds: controllers, reactor owners, struct defenders, grids on structs and allocations', () => {
      const allocation = api.responseFor(api.idsOf('allocation')[0] ?? '') as {
        Allocation: Record<string, unknown>;
        gridAttributes?: unknown;
      };
      assert.equal(entityTypeOfId(String(allocation.Allocation['controller'])), 'player');
      assert.ok(allocation.gridAttributes);
      const reactor = api.responseFor(api.idsOf('reactor')[0] ?? '') as { Reactor: Record<string, unknown> };
      assert.equal(entityTypeOfId(String(reactor.Reactor['owner'])), 'player');
      const defended = api
        .idsOf('struct')
        .map((id) => api.responseFor(id) as { structDefenders: string[]; gridAttributes?: unknown });
      assert.ok(defended.every((body) => body.gridAttributes !== undefined));
      assert.ok(
        defended.some(
          (body) =>
            body.structDefenders.length > 0 && body.structDefenders.every((id) => entityTypeOfId(id) === 'struct'),
        ),
      );
      const statuses = new Set(
        api.idsOf('fleet').map((id) => (api.responseFor(id) as { Fleet: { status: string } }).Fleet.status),
      );
      assert.deepEqual([...statuses].sort(), ['away', 'onStation']);
    });
  });

  it('generates the same world for the same options', () => {
    assert.deepEqual([...generateDataSet({ players: 30 }).responses], [...generateDataSet({ players: 30 }).responses]);
  });

  it('links the world up: every non-empty ID field names an entity it serves (infusions and addresses aside)', () => {
    const world = generateDataSet({ players: 120 });
    const idPattern = /^(\d+)-(\d+)$/;
    for (const [id, body] of world.responses) {
      const walk = (value: unknown): void => {
        if (typeof value === 'string' && idPattern.test(value))
          assert.ok(world.responses.has(value), `${id} refers to missing ${value}`);
        else if (typeof value === 'object' && value !== null) Object.values(value).forEach(walk);
      };
      walk(body);
    }
  });

  it('serves one entity wrapped under its type name, with 64-bit numbers as strings', async () => {
    const body = (await (await fetch(`${api.baseUrl}/structs/player/1-11`)).json()) as {
      Player: Record<string, unknown>;
      gridAttributes: Record<string, unknown>;
    };
    assert.equal(body.Player['id'], '1-11');
    assert.equal(typeof body.gridAttributes['capacity'], 'string');
  });

  it('pages through a list with pagination.key and pagination.limit', async () => {
    const seen: string[] = [];
    let key = '';
    for (;;) {
      const page = (await (
        await fetch(`${api.baseUrl}/structs/guild?pagination.key=${encodeURIComponent(key)}&pagination.limit=2`)
      ).json()) as {
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
