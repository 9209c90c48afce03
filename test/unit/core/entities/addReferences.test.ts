import assert from 'node:assert/strict';
import { addReferences, type ReferenceEntry } from '../../../../src/core/entities/addReferences';
import { EntityResolver } from '../../../../src/core/entities/entityResolver';
import { useStructsApi } from '../../../support/mochaHooks';

type WithReferences = Record<string, unknown> & { references: Record<string, ReferenceEntry> };

describe('addReferences against the Structs API emulator', () => {
  const api = useStructsApi({ players: 300, reset: true });
  let resolver: EntityResolver;
  beforeEach(() => {
    resolver = new EntityResolver({ baseUrl: api.baseUrl });
  });

  /** The player 1-11 as the API answers it: guild 0-11 (which 1-11 owns), substation 4-11, planet 2-11, fleet 9-11. */
  const player = (): Record<string, unknown> => structuredClone(api.responseFor('1-11') ?? {});
  const withReferences = async (
    payload: unknown,
    options: Parameters<typeof addReferences>[2],
  ): Promise<WithReferences> => (await addReferences(payload, resolver, options)) as WithReferences;

  it('returns the payload itself, and asks nothing, without include_references', async () => {
    const payload = player();
    assert.equal(await addReferences(payload, resolver), payload);
    assert.equal(await addReferences(payload, resolver, { include_references: false, reference_depth: 2 }), payload);
    assert.equal(api.stats.total, 0);
  });

  it('adds the depth-1 references of a single entity as a new object, with where each was found, leaving the input alone', async () => {
    const payload = player();
    const before = structuredClone(payload);
    const result = await withReferences(payload, { include_references: true });
    assert.deepEqual(payload, before);
    assert.notEqual(result, payload);
    assert.deepEqual(Object.keys(result), [...Object.keys(payload), 'references']);
    assert.deepEqual(Object.keys(result.references), ['0-11', '4-11', '2-11', '9-11']);
    const guild = result.references['0-11'] as ReferenceEntry & Record<string, unknown>;
    assert.equal(guild?.reference_status, 'resolved');
    assert.equal(guild?.reference_type, 'guild');
    assert.equal(guild?.referenced_from, 'Player.guildId');
    assert.equal(guild?.referenced_in, '1-11');
    assert.equal(guild?.['owner'], '1-11');
    assert.equal(api.stats.total, 4);
  });

  it('resolves the depth-1 ids concurrently', async () => {
    api.knobs.latencyMs = 30;
    await withReferences(player(), { include_references: true });
    assert.equal(api.stats.maxInFlight, 4);
  });

  it('fetches the second level at depth 2, each id once and never the payload itself', async () => {
    const result = await withReferences(player(), {
      include_references: true,
      reference_depth: 2,
      max_references_per_entity: 10,
    });
    const planet = api.responseFor('2-11')?.['Planet'] as { land: string[]; water: string[] };
    const structId = planet.land[0] ?? '';
    const struct = result.references[structId];
    assert.equal(struct?.reference_status, 'resolved');
    assert.equal(struct?.referenced_in, '2-11');
    assert.equal(struct?.referenced_from, 'land[0]');
    assert.ok(result.references['3-11'], "the guild's primary reactor");
    assert.equal(result.references['1-11'], undefined, 'the guild owner is the payload itself');
    const requested = [...api.stats.perId.values()];
    assert.ok(
      requested.every((count) => count === 1),
      'an id was requested twice',
    );
    assert.equal(api.stats.total, Object.keys(result.references).length);
  });

  it('issues exactly max_references requests, one budget across both depths', async () => {
    for (const [limit, depth] of [
      [3, 1],
      [3, 2],
      [6, 2],
      [0, 2],
    ] as const) {
      api.resetStats();
      resolver = new EntityResolver({ baseUrl: api.baseUrl });
      const result = await withReferences(player(), {
        include_references: true,
        reference_depth: depth,
        max_references: limit,
      });
      assert.equal(api.stats.total, limit, `limit ${limit}, depth ${depth}`);
      assert.equal(Object.keys(result.references).length, limit);
    }
  });

  it('lets each list item contribute at most max_references_per_entity references', async () => {
    const page = await (await fetch(`${api.baseUrl}/structs/planet?pagination.limit=20`)).json();
    const result = await withReferences(page, {
      include_references: true,
      max_references: 500,
      max_references_per_entity: 2,
    });
    const perItem = new Map<string, number>();
    for (const entry of Object.values(result.references))
      perItem.set(entry.referenced_in ?? '', (perItem.get(entry.referenced_in ?? '') ?? 0) + 1);
    assert.equal(perItem.size, 20);
    assert.ok(
      [...perItem.values()].every((count) => count === 2),
      JSON.stringify([...perItem]),
    );
    assert.equal(result['pagination'] !== undefined, true);
  });

  it('lets each depth-1 entity contribute at most max_references_per_entity references to depth 2', async () => {
    const result = await withReferences(player(), {
      include_references: true,
      reference_depth: 2,
      max_references: 500,
      max_references_per_entity: 1,
    });
    const fromDepthOne = Object.values(result.references).filter((entry) => entry.referenced_in !== '1-11');
    const perEntity = new Map<string, number>();
    for (const entry of fromDepthOne)
      perEntity.set(entry.referenced_in ?? '', (perEntity.get(entry.referenced_in ?? '') ?? 0) + 1);
    assert.ok(perEntity.size > 0);
    assert.ok(
      [...perEntity.values()].every((count) => count === 1),
      JSON.stringify([...perEntity]),
    );
  });

  it('applies reference_types at every depth', async () => {
    const result = await withReferences(player(), {
      include_references: true,
      reference_depth: 2,
      reference_types: ['planet', 'struct'],
    });
    const types = new Set(Object.values(result.references).map((entry) => entry.reference_type));
    assert.deepEqual([...types].sort(), ['planet', 'struct']);
  });

  it('keeps only primary relationships with include_references "primary"', async () => {
    const payload = { Struct: { id: '5-1', owner: '1-1', locationId: '2-1', planetId: '2-2' } };
    const result = await withReferences(payload, { include_references: 'primary' });
    assert.deepEqual(Object.keys(result.references), ['1-1', '2-2']);
    const all = await withReferences(payload, { include_references: 'all' });
    assert.deepEqual(Object.keys(all.references), ['1-1', '2-1', '2-2']);
  });

  it('keeps failed references with their error, or leaves them out with omit_failed', async () => {
    api.knobs.notFound.add('2-11');
    const kept = await withReferences(player(), { include_references: true });
    assert.deepEqual(kept.references['2-11'], {
      reference_type: 'planet',
      id: '2-11',
      reference_status: 'not_found',
      error: 'no planet 2-11 on this Structs node (codespace structs code 1050: object not found)',
      referenced_from: 'Player.planetId',
      referenced_in: '1-11',
    });
    const omitted = await withReferences(player(), { include_references: true, omit_failed: true });
    assert.deepEqual(Object.keys(omitted.references), ['0-11', '4-11', '9-11']);
  });

  it("keeps each referenced entity's own fields, its status included, beside the resolution fields", async () => {
    const result = await withReferences({ home: '2-10', raider: '9-14', away: '9-7' }, { include_references: true });
    const planet = result.references['2-10'] as ReferenceEntry & Record<string, unknown>;
    assert.equal(planet.reference_status, 'resolved');
    assert.equal(planet['status'], 'complete');
    assert.deepEqual(Object.keys(planet).slice(0, 5), [
      'reference_type',
      'id',
      'reference_status',
      'referenced_from',
      'maxOre',
    ]);
    assert.equal((result.references['9-14'] as ReferenceEntry & Record<string, unknown>)['status'], 'away');
    const body = api.responseFor('2-10') as Record<string, Record<string, unknown>>;
    for (const [field, value] of Object.entries({
      ...body['Planet'],
      gridAttributes: body['gridAttributes'],
      planetAttributes: body['planetAttributes'],
    })) {
      assert.deepEqual(planet[field], value, field);
    }
  });

  it('refuses a payload nested deeper than 256 levels with an error that says so', async () => {
    let payload: unknown = '1-3';
    for (let i = 0; i < 5000; i++) payload = { next: payload };
    await assert.rejects(addReferences(payload, resolver, { include_references: true }), {
      name: 'RangeError',
      message: 'JSON payload nested deeper than 256 levels',
    });
    assert.equal(api.stats.total, 0);
  });

  it('replaces an existing root references section instead of reading it', async () => {
    const payload = { owner: '1-3', references: { '1-4': { owner: '1-5' } } };
    const result = await withReferences(payload, { include_references: true });
    assert.deepEqual(Object.keys(result.references), ['1-3']);
  });

  it('leaves out exclude_id', async () => {
    const result = await withReferences({ a: '1-3', b: '1-4' }, { include_references: true, exclude_id: '1-3' });
    assert.deepEqual(Object.keys(result.references), ['1-4']);
  });

  it('clamps reference_depth to 0-2', async () => {
    const none = await withReferences(player(), { include_references: true, reference_depth: -3 });
    assert.deepEqual(none.references, {});
    assert.equal(api.stats.total, 0);
    const deep = await withReferences(player(), { include_references: true, reference_depth: 9 });
    const two = await withReferences(player(), { include_references: true, reference_depth: 2 });
    assert.deepEqual(Object.keys(deep.references), Object.keys(two.references));
  });

  it('handles cycles: a player and planet owning each other end with one entry each', async () => {
    const result = await withReferences(
      { note: { planet: '2-20', player: '1-20' } },
      { include_references: true, reference_depth: 2, max_references_per_entity: 20 },
    );
    const ids = Object.keys(result.references);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(result.references['1-20']?.referenced_from, 'note.player');
  });

  it('refuses bad options with a clear message', async () => {
    const cases: [unknown, RegExp][] = [
      [{ include_references: 'some' }, /include_references must be true, false, "all" or "primary"/],
      [{ include_references: true, max_references: -1 }, /max_references must be 0 or more/],
      [
        { include_references: true, max_references_per_entity: 1.5 },
        /max_references_per_entity must be a whole number/,
      ],
      [{ include_references: true, reference_types: ['planets'] }, /unknown entity type "planets"/],
      [{ include_references: true, reference_depth: '2' }, /reference_depth must be a number/],
      [{ include_references: true, omit_failed: 'yes' }, /omit_failed must be true or false/],
      [{ include_references: true, colour: 'red' }, /colour/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(addReferences(player(), resolver, options as never), message, JSON.stringify(options));
    }
    await assert.rejects(addReferences(['1-1'], resolver, { include_references: true }), /JSON object payload/);
  });

  it("stops with the signal's reason when aborted", async () => {
    api.knobs.latencyMs = 300;
    const controller = new AbortController();
    const pending = addReferences(player(), resolver, { include_references: true, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(pending, { name: 'AbortError' });
  });
});
