import assert from 'node:assert/strict';
import { groupedCount } from '../../../src/core/quantities';

describe('groupedCount', () => {
  it("writes a whole number as toLocaleString('en-US') does", () => {
    for (const n of [0, 7, 999, 1000, 1234, 99_999, 100_000, 1_234_567, 9_830_405, 2 ** 53 - 1])
      assert.equal(groupedCount(n), n.toLocaleString('en-US'), String(n));
    for (let n = 1; n < 1e15; n = n * 3 + 1) assert.equal(groupedCount(n), n.toLocaleString('en-US'));
  });
});
