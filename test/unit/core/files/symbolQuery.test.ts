import assert from 'node:assert/strict';
import fc from 'fast-check';
import { matchesSymbolQuery, matchingSymbols, SYMBOL_RESULTS } from '../../../../src/core/files/symbolQuery';

const symbol = (name: string) => ({ name, lowerName: name.toLowerCase() });

describe('workspace symbol queries for refs', () => {
  it("finds a name by the query's characters in order, in any case, spaces ignored", () => {
    assert.ok(matchesSymbolQuery('ref:parse_config', 'parse'));
    assert.ok(matchesSymbolQuery('ref:parse_config', 'PCFG'));
    assert.ok(matchesSymbolQuery('ref:parse_config', 'ref: parse'));
    assert.ok(matchesSymbolQuery('fd:12', 'fd:1'));
    assert.ok(matchesSymbolQuery('fd:12', ''));
    assert.ok(!matchesSymbolQuery('ref:parse_config', 'gfc'), 'order matters');
    assert.ok(!matchesSymbolQuery('fd:12', 'fd:3'));
    assert.ok(!matchesSymbolQuery('ref:ab', 'abb'), 'each character of the query is used once');
  });

  it('matches every subsequence of a name, whatever its case, and nothing with a character the name lacks', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.infiniteStream(fc.boolean()), (name, picks) => {
        const lower = name.toLowerCase();
        const chars = [...name];
        const query = chars
          .filter(() => picks.next().value)
          // Upper case only where it comes back to the same lower case (not `ß` → `SS`).
          .map((c) => (picks.next().value && c.toUpperCase().toLowerCase() === c.toLowerCase() ? c.toUpperCase() : c))
          .join('');
        assert.ok(matchesSymbolQuery(lower, query), JSON.stringify({ name, query }));
        const missing = '\u{1F9EA}';
        if (!lower.includes(missing)) assert.ok(!matchesSymbolQuery(lower, `${query}${missing}`));
      }),
    );
  });

  it('returns matches in the order of the groups and stops reading once the limit is reached', () => {
    const read: number[] = [];
    function* groups() {
      for (let g = 0; g < 100; g++) {
        read.push(g);
        yield Array.from({ length: 10 }, (_, i) => symbol(`ref:item_${g}_${i}`));
      }
    }
    const found = matchingSymbols(groups(), 'item', 25);
    assert.equal(found.length, 25);
    assert.equal(found[0]?.name, 'ref:item_0_0');
    assert.equal(found[24]?.name, 'ref:item_2_4');
    assert.deepEqual(read, [0, 1, 2], 'the groups after the limit are not read');
  });

  it(`returns at most ${SYMBOL_RESULTS} symbols by default, and all matches below that`, () => {
    const many = [Array.from({ length: SYMBOL_RESULTS + 50 }, (_, i) => symbol(`fd:${i + 1}`))];
    assert.equal(matchingSymbols(many, 'fd').length, SYMBOL_RESULTS);
    assert.deepEqual(
      matchingSymbols(many, 'FD:549').map((s) => s.name),
      ['fd:549'],
    );
  });
});
