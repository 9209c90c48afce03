import assert from 'node:assert/strict';
import fc from 'fast-check';
import { entityTypeOfId } from '../../../../src/core/entities/entityTypes';
import { extractEntityIds } from '../../../../src/core/entities/extractEntityIds';
import { findEntityIdsInText } from '../../../../src/core/entities/findEntityIdsInText';

const ids = (found: { id: string }[]): string[] => found.map((entry) => entry.id);

describe('entity IDs', () => {
  describe('entityTypeOfId', () => {
    it('maps every type code 0-11 to its type', () => {
      const types = Array.from({ length: 12 }, (_, code) => entityTypeOfId(`${code}-1`));
      assert.deepEqual(types, [
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
      ]);
    });

    it('accepts only exact type-index strings without leading zeros or padding', () => {
      for (const valid of ['0-1', '2-7', '9-11', '10-1', '11-123456789012345'])
        assert.notEqual(entityTypeOfId(valid), undefined, valid);
      for (const invalid of [
        ' 2-7 ',
        '2-7 ',
        '02-7',
        '2-07',
        '2-0',
        '12-3',
        '1-',
        '-1',
        '2--1',
        '2-1a',
        '',
        '2',
        '1_1',
        '٢-١',
        '2-1\n',
      ]) {
        assert.equal(entityTypeOfId(invalid), undefined, JSON.stringify(invalid));
      }
    });
  });

  describe('extractEntityIds', () => {
    it('finds the references of a single-entity response in first-seen order, with field paths, and not the entity itself', () => {
      const payload = {
        Player: {
          id: '1-11',
          index: '11',
          guildId: '0-1',
          substationId: '',
          planetId: '2-1',
          fleetId: '9-11',
          guildRank: '101',
        },
        gridAttributes: { capacity: '50000000', load: '0' },
        playerInventory: { lastOwner: '1-11', home: '2-1' },
      };
      assert.deepEqual(extractEntityIds(payload), [
        { id: '0-1', type: 'guild', field: 'Player.guildId' },
        { id: '2-1', type: 'planet', field: 'Player.planetId' },
        { id: '9-11', type: 'fleet', field: 'Player.fleetId' },
      ]);
    });

    it('writes array items in brackets and quotes keys that are not identifiers', () => {
      const payload = {
        structs: [{ owner: '1-1' }, { owner: '1-1' }, { owner: '1-2' }],
        'odd key': ['5-1'],
        Planet: { land: ['', '5-9'] },
      };
      assert.deepEqual(extractEntityIds(payload), [
        { id: '1-1', type: 'player', field: 'structs[0].owner' },
        { id: '1-2', type: 'player', field: 'structs[2].owner' },
        { id: '5-1', type: 'struct', field: '["odd key"][0]' },
        { id: '5-9', type: 'struct', field: 'Planet.land[1]' },
      ]);
      assert.deepEqual(extractEntityIds([{ owner: '1-3' }]), [{ id: '1-3', type: 'player', field: '[0].owner' }]);
    });

    it("never reads object keys, and never reads a list item's own id", () => {
      const payload = {
        Planet: [
          { id: '2-1', owner: '1-1' },
          { id: '2-2', owner: '1-2' },
        ],
        '2-3': 'x',
      };
      assert.deepEqual(ids(extractEntityIds(payload)), ['1-1', '1-2']);
    });

    it('skips a root references section, non-entity fields and padded or zero-led strings', () => {
      const payload = {
        references: { '0-1': { id: '0-1', owner: '1-99' } },
        nested: { references: '1-5' },
        version: '1-2',
        schema_version: '1-3',
        api_version: '1-4',
        coordinates: ['1-6'],
        position: { x: '1-7' },
        range: '1-8',
        timestamp: '1-9',
        created_at: '1-10',
        updated_at: '1-11',
        pagination: { next_key: '1-12', total: '1-13' },
        next_key: '1-14',
        total: '1-15',
        padded: [' 2-7 ', '02-7', '2-0', '12-3', 2, null, true],
      };
      assert.deepEqual(ids(extractEntityIds(payload)), ['1-5']);
    });

    it('leaves out excludeId', () => {
      assert.deepEqual(ids(extractEntityIds({ a: '1-1', b: '1-2' }, { excludeId: '1-1' })), ['1-2']);
    });

    it('keeps only owner and the primary relationship fields in primary mode, array items included, in both spellings', () => {
      const payload = {
        Struct: {
          id: '5-1',
          owner: '1-1',
          locationId: '2-1',
          guild_id: '0-1',
          planetId: '2-2',
          fleet_id: '9-1',
          substationId: '4-1',
          reactor_id: '3-1',
          primaryReactorId: '3-2',
          entry_substation_id: '4-2',
          providerId: '10-1',
          fleetId: ['9-2', ['9-3']],
          slots: ['5-2'],
        },
      };
      assert.deepEqual(ids(extractEntityIds(payload, { mode: 'primary' })), [
        '1-1',
        '0-1',
        '2-2',
        '9-1',
        '4-1',
        '3-1',
        '3-2',
        '4-2',
        '9-2',
        '9-3',
      ]);
    });

    it('keeps only the asked types', () => {
      assert.deepEqual(ids(extractEntityIds({ a: '1-1', b: '2-1', c: '0-1' }, { types: ['planet', 'guild'] })), [
        '2-1',
        '0-1',
      ]);
    });

    it('rejects an unknown mode or type', () => {
      assert.throws(() => extractEntityIds({}, { mode: 'some' as never }), /mode must be "all" or "primary"/);
      assert.throws(() => extractEntityIds({}, { types: ['planets' as never] }), /unknown entity type "planets"/);
    });

    it('survives a cyclic object', () => {
      const payload: Record<string, unknown> = { owner: '1-1' };
      payload['self'] = payload;
      assert.deepEqual(ids(extractEntityIds(payload)), ['1-1']);
    });

    it('reports exactly the valid ID strings at non-skipped positions of any JSON value (property)', () => {
      const validIds = ['2-1', '1-11', '0-1', '9-11', '11-4', '3-1', '10-2'];
      const strings = [...validIds, '12-3', '02-1', ' 2-7 ', '2-0', 'hello', '', '10-20-30', '2-1 ', '1.2-3'];
      const keys = [
        'id',
        'owner',
        'guildId',
        'version',
        'pagination',
        'total',
        'name',
        'slots',
        'references',
        'Player',
        'planetId',
        'x',
        '2-1',
      ];
      const skipped = new Set([
        'version',
        'schema_version',
        'api_version',
        'coordinates',
        'position',
        'range',
        'timestamp',
        'created_at',
        'updated_at',
        'pagination',
        'next_key',
        'total',
      ]);
      const { json } = fc.letrec((tie) => ({
        json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('leaf'), tie('array'), tie('object')),
        leaf: fc.oneof(fc.constantFrom(...strings), fc.integer(), fc.constant(null), fc.boolean()),
        array: fc.array(tie('json'), { maxLength: 4 }),
        object: fc.dictionary(fc.constantFrom(...keys), tie('json'), { maxKeys: 5 }),
      }));
      const model = (payload: unknown, excludeId: string | undefined): string[] => {
        const excluded = new Set<string>(excludeId === undefined ? [] : [excludeId]);
        const player = (payload as { Player?: unknown } | null)?.Player;
        if (
          typeof payload === 'object' &&
          payload !== null &&
          !Array.isArray(payload) &&
          typeof player === 'object' &&
          player !== null &&
          !Array.isArray(player)
        ) {
          const own = (player as { id?: unknown }).id;
          if (typeof own === 'string' && own.startsWith('1-')) excluded.add(own);
        }
        const found: string[] = [];
        const walk = (value: unknown, atRoot: boolean): void => {
          if (typeof value === 'string') {
            if (validIds.includes(value) && !excluded.has(value) && !found.includes(value)) found.push(value);
          } else if (Array.isArray(value)) value.forEach((item) => walk(item, false));
          else if (typeof value === 'object' && value !== null) {
            for (const [key, child] of Object.entries(value)) {
              if (key === 'id' || skipped.has(key) || (atRoot && key === 'references')) continue;
              walk(child, false);
            }
          }
        };
        walk(payload, true);
        return found;
      };
      fc.assert(
        fc.property(json, fc.option(fc.constantFrom(...validIds), { nil: undefined }), (payload, excludeId) => {
          const found = extractEntityIds(payload, excludeId === undefined ? {} : { excludeId });
          assert.deepEqual(ids(found), model(payload, excludeId));
          for (const entry of found) assert.equal(entry.type, entityTypeOfId(entry.id));
        }),
        { numRuns: 500 },
      );
    });

    it('refuses a payload 5,000 levels deep with an error naming the problem, not a stack overflow', () => {
      let payload: unknown = '1-3';
      for (let i = 0; i < 5000; i++) payload = i % 2 === 0 ? [payload] : { owner: payload };
      assert.throws(() => extractEntityIds(payload), {
        name: 'RangeError',
        message: 'JSON payload nested deeper than 256 levels',
      });
    });

    it('reads a payload 256 levels deep, and no deeper', () => {
      const nested = (levels: number): unknown => {
        let payload: unknown = '1-3';
        for (let i = 0; i < levels; i++) payload = { owner: payload };
        return payload;
      };
      assert.deepEqual(ids(extractEntityIds(nested(256))), ['1-3']);
      assert.throws(() => extractEntityIds(nested(257)), /nested deeper than 256 levels/);
    });
  });

  describe('findEntityIdsInText', () => {
    const idsIn = (text: string): string[] => ids(findEntityIdsInText(text));

    it('finds IDs that stand as whole tokens, with their positions', () => {
      assert.deepEqual(findEntityIdsInText('planet 2-1'), [{ id: '2-1', type: 'planet', start: 7, end: 10 }]);
      for (const [text, expected] of [
        ['"2-1"', ['2-1']],
        ['(2-1)', ['2-1']],
        ['see 2-1, then 9-11.', ['2-1', '9-11']],
        ['it is 2-1.', ['2-1']],
        ['2-1.\nnext', ['2-1']],
        ['guild 0-1 and agreement 11-4', ['0-1', '11-4']],
        ['[1-11]', ['1-11']],
      ] as const) {
        assert.deepEqual(idsIn(text), expected, text);
      }
    });

    it('ignores dates, ranges, versions, decimals, unknown type codes, leading zeros and index 0', () => {
      for (const text of [
        '2024-01-15',
        '10-20-30',
        'v1-2',
        'a2-3',
        '1.2-3',
        '2-1.5',
        '12-3',
        '02-3',
        '2-0',
        'x_2-1',
        '2-1x',
        '2-1_',
        '2-1-',
        '-2-1',
        'é2-1',
        '2-1.a',
      ]) {
        assert.deepEqual(idsIn(text), [], text);
      }
    });

    it('reports every occurrence, repeats included, so each can be hovered', () => {
      const text = '2-1 and 2-1';
      assert.deepEqual(
        findEntityIdsInText(text).map((found) => text.slice(found.start, found.end)),
        ['2-1', '2-1'],
      );
    });
  });
});
