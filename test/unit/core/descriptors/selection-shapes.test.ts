import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { Content } from '../../../../src/core/descriptors/content';
import { selectLines, selectPages } from '../../../../src/core/descriptors/selection';

/**
 * A selection's attributes were built as `{ ...where, continued, truncated, lines, total_lines }`: once V8 optimizes
 * that, every object it makes gets a hidden class (map) of its own, about 4 µs and a map to collect per page read,
 * a third of a `read_fd` call. Which map an object has is V8's to say (`%HaveSameMap`, natives syntax), and this
 * checks it rather than a duration (the bench times `read_fd`).
 */
describe('selections', () => {
  let sameMap: (a: object, b: object) => boolean;
  before(() => {
    v8.setFlagsFromString('--allow-natives-syntax');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in code compiled now
    sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as typeof sameMap;
  });

  it('give the attributes of every page and line range read one hidden class, however many are read', async () => {
    const content = new Content('a line of text\n'.repeat(1000));
    for (const [name, select] of [
      ['pages', (i: number) => selectPages(content, 50, 1 + (i % 300), 1 + (i % 2))],
      ['lines', (i: number) => selectLines(content, 50, 1 + (i % 900), 1 + (i % 3))],
    ] as const) {
      const first = (await select(0)).attributes;
      let differing = 0;
      for (let i = 1; i < 5000; i++) if (!sameMap(first, (await select(i)).attributes)) differing++;
      assert.equal(differing, 0, `${name}: ${differing} of 4999 reads made a hidden class of their own`);
    }
  });
});
