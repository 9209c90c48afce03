import assert from 'node:assert/strict';
import { compareCandidates, compareTitle, MAX_COMPARE_CANDIDATES } from '../../../../src/core/presentation/compareWith';

const side = (sessionId: string, id: string, minute: number) => ({
  sessionId,
  sessionName: sessionId === 's1' ? 'Terminal' : 'Build',
  id,
  createdAt: `2026-11-28T01:${String(minute).padStart(2, '0')}:00.000Z`,
});

describe('Compare with...', () => {
  it('offers every descriptor and ref of every session but the one compared, newest first', () => {
    const all = [side('s1', 'fd:1', 1), side('s1', 'fd:2', 5), side('s2', 'fd:1', 3), side('s2', 'ref:x', 4)];
    const offered = compareCandidates(all, { sessionId: 's1', sessionName: 'Terminal', id: 'fd:1' });
    assert.deepEqual(
      offered.map((s) => `${s.sessionId}/${s.id}`),
      ['s1/fd:2', 's2/ref:x', 's2/fd:1'],
    );
  });

  it('offers at most the newest MAX_COMPARE_CANDIDATES', () => {
    const all = Array.from({ length: MAX_COMPARE_CANDIDATES + 5 }, (_, i) => ({
      ...side('s2', `fd:${i + 1}`, 0),
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    }));
    const offered = compareCandidates(all, { sessionId: 's1', sessionName: 'Terminal', id: 'fd:1' });
    assert.equal(offered.length, MAX_COMPARE_CANDIDATES);
    assert.equal(offered[0]?.id, `fd:${MAX_COMPARE_CANDIDATES + 5}`);
  });

  it('titles the diff with the picked side first, naming the sessions once or each', () => {
    const a = side('s1', 'fd:1', 1);
    assert.equal(compareTitle(a, side('s1', 'fd:4', 2)), 'fd:1 ↔ fd:4 · Terminal');
    assert.equal(compareTitle(a, side('s2', 'fd:4', 2)), 'fd:1 (Terminal) ↔ fd:4 (Build)');
    assert.equal(compareTitle('logs/run.log', side('s2', 'fd:4', 2)), 'logs/run.log ↔ fd:4 (Build)');
  });
});
