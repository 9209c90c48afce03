import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ENTITY_TYPES, entityTypeOfId } from '../../../src/core/entities/entityTypes';
import {
  asDescriptorId,
  DESCRIPTOR_ID,
  descriptorIdBody,
  descriptorKindOf,
  type DescriptorIdParts,
  FD_ID,
  formatDescriptorId,
  formatEntityId,
  isDescriptorId,
  isEntityId,
  isHoverableEntityId,
  isRefId,
  parseDescriptorId,
  parseEntityId,
  prefixedDescriptorId,
  REF_ID,
  refDescriptorId,
} from '../../../src/core/ids';

const refId = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/);
const number = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
const descriptorParts: fc.Arbitrary<DescriptorIdParts> = fc.oneof(
  number.map((n) => ({ kind: 'fd' as const, number: n })),
  refId.map((id) => ({ kind: 'ref' as const, refId: id })),
  fc.tuple(refId, number).map(([id, version]) => ({ kind: 'ref' as const, refId: id, version })),
);
/** Strings near the grammar: prefixes, digits, id characters and a few that are not. */
const nearDescriptorId = fc
  .array(fc.constantFrom('ref:', 'fd:', '@', '0', '1', '9', 'a', 'Z', '_', '.', '-', ':', ' ', '\n', 'é'), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));

describe('ids', () => {
  describe('ref ids', () => {
    it('are a letter or digit, then up to 127 letters, digits, _, . or -', () => {
      for (const valid of [
        'a',
        'Z',
        '0',
        'parse_config',
        'a.b-c_d',
        'x-',
        'x.',
        'a'.repeat(128),
        `9${'_'.repeat(127)}`,
      ])
        assert.ok(isRefId(valid), valid);
      for (const invalid of ['', '_x', '.x', '-x', 'a'.repeat(129), 'a b', 'a@1', 'ref:a', 'a\n', ' a', 'é', 'a/b'])
        assert.ok(!isRefId(invalid), JSON.stringify(invalid));
    });

    it('quotes the same pattern in diagnostics as before', () => {
      assert.equal(REF_ID.source, '^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$');
    });
  });

  describe('descriptor ids', () => {
    it('parses fd:N, ref:x and ref:x@N into their parts', () => {
      assert.deepEqual(parseDescriptorId('fd:1'), { kind: 'fd', number: 1 });
      assert.deepEqual(parseDescriptorId('fd:4294967295'), { kind: 'fd', number: 4294967295 });
      assert.deepEqual(parseDescriptorId('ref:parse_config'), { kind: 'ref', refId: 'parse_config' });
      assert.deepEqual(parseDescriptorId('ref:a.b-c@12'), { kind: 'ref', refId: 'a.b-c', version: 12 });
      assert.deepEqual(parseDescriptorId(`ref:${'a'.repeat(128)}@1`), {
        kind: 'ref',
        refId: 'a'.repeat(128),
        version: 1,
      });
    });

    it('refuses zero, leading zeros, bad ref ids and anything around the id', () => {
      for (const invalid of [
        'fd:0',
        'fd:01',
        'fd:',
        'fd:-1',
        'fd:1.5',
        'fd:1a',
        'FD:1',
        ' fd:1',
        'fd:1 ',
        'fd:1\n',
        'ref:x@0',
        'ref:x@01',
        'ref:x@',
        'ref:x@1@2',
        'ref:',
        'ref:_x',
        'ref:.x',
        'ref:-x',
        `ref:${'a'.repeat(129)}`,
        'ref:x y',
        'x',
        'ref:fd:1',
        '',
      ]) {
        assert.equal(parseDescriptorId(invalid), undefined, JSON.stringify(invalid));
        assert.ok(!isDescriptorId(invalid), JSON.stringify(invalid));
      }
    });

    it('formats parts back into the id they came from, and parses every formatted id back into its parts', () => {
      fc.assert(
        fc.property(descriptorParts, (parts) => assert.deepEqual(parseDescriptorId(formatDescriptorId(parts)), parts)),
      );
      assert.equal(formatDescriptorId({ kind: 'fd', number: 3 }), 'fd:3');
      assert.equal(formatDescriptorId({ kind: 'ref', refId: 'x' }), 'ref:x');
      assert.equal(formatDescriptorId({ kind: 'ref', refId: 'x', version: 2 }), 'ref:x@2');
    });

    it("writes a ref's descriptor id with or without its version", () => {
      assert.equal(refDescriptorId('x'), 'ref:x');
      assert.equal(refDescriptorId('x', 2), 'ref:x@2');
      assert.equal(refDescriptorId('x', undefined), 'ref:x');
      fc.assert(
        fc.property(refId, fc.option(number, { nil: undefined }), (id, version) => {
          assert.deepEqual(
            parseDescriptorId(refDescriptorId(id, version)),
            version === undefined ? { kind: 'ref', refId: id } : { kind: 'ref', refId: id, version },
          );
        }),
      );
    });

    it('takes the prefix off an id and puts it back, and reads what was written as a ref id unless it has a prefix', () => {
      fc.assert(
        fc.property(descriptorParts, (parts) => {
          const id = formatDescriptorId(parts);
          assert.equal(descriptorKindOf(id), parts.kind);
          assert.equal(prefixedDescriptorId(parts.kind, descriptorIdBody(id)), id);
          assert.equal(asDescriptorId(id), id);
        }),
      );
      assert.equal(descriptorIdBody('ref:x@2'), 'x@2');
      assert.equal(descriptorIdBody('fd:3'), '3');
      assert.equal(descriptorKindOf('nonsense'), undefined);
      assert.equal(asDescriptorId('x'), 'ref:x');
      assert.equal(asDescriptorId('x@2'), 'ref:x@2');
    });

    it('agrees between the parser, the predicates and the anchored patterns for any string', () => {
      fc.assert(
        fc.property(nearDescriptorId, (s) => {
          const parts = parseDescriptorId(s);
          assert.equal(isDescriptorId(s), parts !== undefined);
          assert.equal(DESCRIPTOR_ID.test(s), parts !== undefined);
          assert.equal(FD_ID.test(s), parts?.kind === 'fd');
          if (parts?.kind === 'ref') assert.ok(isRefId(parts.refId));
          if (parts !== undefined && s.length < 20) assert.equal(formatDescriptorId(parts), s);
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('entity ids', () => {
    it('are a type code 0-11, a dash and an index from 1, without leading zeros', () => {
      for (const valid of ['0-1', '2-7', '9-11', '10-1', '11-1', '11-123456789012345', '2-18446744073709551615'])
        assert.ok(isEntityId(valid), valid);
      for (const invalid of [
        '12-1',
        '1-0',
        '0-0',
        '02-1',
        '2-01',
        '-1',
        '1-',
        '2--1',
        '2-1a',
        ' 2-1',
        '2-1 ',
        '2-1\n',
        '2',
        '',
        '٢-١',
        '100-1',
      ]) {
        assert.ok(!isEntityId(invalid), JSON.stringify(invalid));
        assert.equal(parseEntityId(invalid), undefined, JSON.stringify(invalid));
      }
      assert.ok(!isEntityId(21));
    });

    it('parses into a type code and the index as written, and formats back', () => {
      assert.deepEqual(parseEntityId('2-1'), { typeCode: 2, index: '1' });
      assert.deepEqual(parseEntityId('11-123'), { typeCode: 11, index: '123' });
      assert.deepEqual(parseEntityId('2-18446744073709551615'), { typeCode: 2, index: '18446744073709551615' });
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 11 }), fc.bigInt({ min: 1n, max: 2n ** 64n - 1n }), (typeCode, index) => {
          const parts = { typeCode, index: String(index) };
          assert.deepEqual(parseEntityId(formatEntityId(parts)), parts);
        }),
      );
    });

    it('has exactly one type code for each entity type', () => {
      ENTITY_TYPES.forEach((type, code) => {
        assert.equal(parseEntityId(`${code}-1`)?.typeCode, code);
        assert.equal(entityTypeOfId(`${code}-1`), type);
      });
      assert.equal(parseEntityId(`${ENTITY_TYPES.length}-1`), undefined);
    });

    it('lets the chat webview ask about entity ids with indices of up to 19 digits', () => {
      assert.ok(isHoverableEntityId('2-1'));
      assert.ok(isHoverableEntityId(`11-${'9'.repeat(19)}`));
      assert.ok(!isHoverableEntityId(`2-1${'0'.repeat(19)}`));
      for (const invalid of ['12-1', '2-0', '99-1', '2-1 ', ''])
        assert.ok(!isHoverableEntityId(invalid), JSON.stringify(invalid));
    });
  });
});
