import assert from 'node:assert/strict';
import {
  keptLineItem,
  keptSearchNotice,
  keptSearchTitle,
  searchIndexUsage,
  type KeptLineHit,
} from '../../../../src/core/presentation/searchKeptOutput';

const hit = (over: Partial<KeptLineHit> = {}): KeptLineHit => ({
  session: 's1',
  sessionName: 'Terminal 2026-12-07',
  handle: 'fd:3',
  line: 1042,
  text: '    FAIL src/parser.test.ts > parses a config',
  command: 'npm test',
  tool: undefined,
  originLabel: 'Terminal',
  ...over,
});

describe('Search Kept Output items', () => {
  it('labels an item with the matching line, trimmed, and describes its handle, line, session and command', () => {
    assert.deepEqual(keptLineItem(hit()), {
      label: 'FAIL src/parser.test.ts > parses a config',
      description: 'fd:3 · line 1,042 · Terminal 2026-12-07 · npm test',
    });
  });

  it('names where the output came from when it has no command line, with the tool that made it', () => {
    assert.equal(keptLineItem(hit({ command: undefined })).description.split(' · ')[3], 'Terminal');
    assert.equal(
      keptLineItem(hit({ command: ' ', handle: 'fd:9', tool: 'read_file', originLabel: 'Chat' })).description,
      'fd:9 · line 1,042 · Terminal 2026-12-07 · Chat (read_file)',
    );
  });

  it('shows the first line of a long multi-line command, cut short', () => {
    const description = keptLineItem(hit({ command: `\n${'x'.repeat(200)}\necho done` })).description;
    const shown = description.split(' · ')[3] ?? '';
    assert.equal(shown.length, 60);
    assert.ok(shown.endsWith('…'));
  });

  it('counts the matches in the title, saying when the count is a lower bound and how many are shown', () => {
    const page = (matches: number, shown: number, exact = true) => ({
      hits: Array.from({ length: shown }),
      matches,
      exact,
      unsearchedBytes: 0,
    });
    assert.equal(keptSearchTitle('Search Kept Output', page(1, 1)), 'Search Kept Output: 1 line matches');
    assert.equal(keptSearchTitle('S', page(12, 12)), 'S: 12 lines match');
    assert.equal(keptSearchTitle('S', page(2500, 100, false)), 'S: at least 2,500 lines match, 100 best shown');
    assert.equal(keptSearchTitle('S', page(0, 0)), 'S');
  });

  it('says why nothing is shown: no match (and what is not indexed yet) or the refusal of a pattern without words', () => {
    assert.equal(
      keptSearchNotice({ hits: [], matches: 0, exact: true, unsearchedBytes: 0 }),
      'No kept line contains this text.',
    );
    assert.equal(
      keptSearchNotice({ hits: [], matches: 0, exact: true, unsearchedBytes: 3 * 1024 * 1024 }),
      'No kept line contains this text (3.0 MB of the newest output is not indexed yet).',
    );
    assert.equal(keptSearchNotice({ hits: [1], matches: 1, exact: true, unsearchedBytes: 0 }), undefined);
    assert.equal(
      keptSearchNotice({ refusal: 'a search across descriptors needs a pattern with at least one word' }),
      'Cannot search: a search across descriptors needs a pattern with at least one word.',
    );
  });
});

describe('the search index in Show Store Usage', () => {
  it('gives its size on disk and what is not indexed yet', () => {
    assert.deepEqual(searchIndexUsage({ diskBytes: 5 * 1024 * 1024, pendingBytes: 2048 }), {
      label: 'Search index',
      description: '5.0 MB on disk · 2.0 KB not indexed yet',
    });
    assert.equal(searchIndexUsage({ diskBytes: 4096, pendingBytes: 0 }).description, '4.0 KB on disk · all indexed');
  });

  it('says it is not available, and why, when its stats fail', () => {
    assert.equal(
      searchIndexUsage({ failure: 'SQLite is not available here: no node:sqlite and no libsql.' }).description,
      'not available (SQLite is not available here: no node:sqlite and no libsql)',
    );
  });
});
