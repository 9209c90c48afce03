import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { documentColumn, type GroupSight } from '../../../../src/core/presentation/documentColumn';

const group = (column: number, active: boolean, showsChat: boolean): GroupSight => ({ column, active, showsChat });

describe('the column of a document opened from a chat', () => {
  it('uses the active group when the chat is in the side bar or in another group', () => {
    assert.equal(documentColumn([group(1, true, false)]), 1);
    assert.equal(documentColumn([group(1, false, true), group(2, true, false)]), 2);
    assert.equal(documentColumn([group(1, false, false), group(2, false, true), group(3, true, false)]), 3);
  });

  it('goes to another group than the chat tab the user is in, the leftmost free one', () => {
    assert.equal(documentColumn([group(1, false, false), group(2, true, true)]), 1);
    assert.equal(documentColumn([group(1, true, true), group(2, false, true), group(3, false, false)]), 3);
    assert.equal(documentColumn([group(1, false, false), group(2, true, true), group(3, false, false)]), 1);
  });

  it('opens beside only when every group shows a chat, and in the first column when there is no group', () => {
    assert.equal(documentColumn([group(1, true, true)]), 'beside');
    assert.equal(documentColumn([group(1, false, true), group(2, true, true)]), 'beside');
    assert.equal(documentColumn([]), 1);
  });

  it('never covers a chat and never adds a column while a group shows none', () => {
    const layouts = fc
      .array(fc.record({ active: fc.boolean(), showsChat: fc.boolean() }), { minLength: 1, maxLength: 8 })
      .map((groups) => {
        const activeAt = groups.findIndex((g) => g.active);
        return groups.map((g, i) => group(i + 1, i === (activeAt === -1 ? 0 : activeAt), g.showsChat));
      });
    fc.assert(
      fc.property(layouts, (groups) => {
        const column = documentColumn(groups);
        const free = groups.filter((g) => !g.showsChat);
        if (free.length === 0) return column === 'beside';
        const chosen = groups.find((g) => g.column === column);
        return chosen !== undefined && !chosen.showsChat;
      }),
    );
  });
});
