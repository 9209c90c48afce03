import assert from 'node:assert/strict';
import {
  growsStore,
  RETENTION_INTERVAL_MS,
  RetentionSchedule,
  type ScheduleClock,
} from '../../../../src/core/store/retentionSchedule';
import type { StoreChange } from '../../../../src/core/store/watch';

/** A clock that moves only when told, firing the timers that fall due on the way, in order. */
class ManualClock implements ScheduleClock {
  private time = 1_000_000;
  private timers: { at: number; run: () => void }[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, run: () => void): () => void {
    const timer = { at: this.time + ms, run };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((t) => t !== timer));
  }

  /** Moves `ms` on, firing each timer at its time. */
  async advance(ms: number): Promise<void> {
    const end = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at)[0];
      if (next === undefined || next.at > end) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.at;
      next.run();
      await Promise.resolve();
    }
    this.time = end;
  }

  get pending(): number {
    return this.timers.length;
  }
}

/** A schedule over a manual clock that records the times retention ran. */
function scheduled(fail = false) {
  const clock = new ManualClock();
  const runs: number[] = [];
  const schedule = new RetentionSchedule(() => {
    runs.push(clock.now());
    return fail ? Promise.reject(new Error('the store went away')) : Promise.resolve([]);
  }, clock);
  return { clock, runs, schedule };
}

describe('RetentionSchedule: retention after the store grew, at most once an interval', () => {
  it('runs at once after a quiet time, then answers every growth within the interval with one run at its end', async () => {
    const { clock, runs, schedule } = scheduled();
    const start = clock.now();
    schedule.storeGrew();
    await clock.advance(0);
    assert.deepEqual(runs, [start]);
    // An agent writing output all the while: a growth every second for just under three minutes.
    for (let second = 1; second < 180; second++) {
      await clock.advance(1000);
      schedule.storeGrew();
    }
    await clock.advance(RETENTION_INTERVAL_MS);
    assert.deepEqual(
      runs,
      [0, 1, 2, 3].map((n) => start + n * RETENTION_INTERVAL_MS),
      'one run a minute, never one per write',
    );
    for (let i = 1; i < runs.length; i++)
      assert.ok((runs[i] ?? 0) - (runs[i - 1] ?? 0) >= RETENTION_INTERVAL_MS, 'never two within the interval');
  });

  it('does not run without growth', async () => {
    const { clock, runs } = scheduled();
    await clock.advance(10 * RETENTION_INTERVAL_MS);
    assert.deepEqual(runs, []);
  });

  it('counts a run made elsewhere (at startup, on a settings change): the next growth waits for the interval', async () => {
    const { clock, runs, schedule } = scheduled();
    schedule.ran();
    const startup = clock.now();
    await clock.advance(10_000);
    schedule.storeGrew();
    await clock.advance(RETENTION_INTERVAL_MS - 10_000 - 1);
    assert.deepEqual(runs, [], 'not within the interval after the startup run');
    await clock.advance(1);
    assert.deepEqual(runs, [startup + RETENTION_INTERVAL_MS]);
  });

  it('keeps running after a run failed', async () => {
    const { clock, runs, schedule } = scheduled(true);
    schedule.storeGrew();
    await clock.advance(0);
    schedule.storeGrew();
    await clock.advance(RETENTION_INTERVAL_MS);
    assert.equal(runs.length, 2);
  });

  it('runs no more once disposed, a run waiting included', async () => {
    const { clock, runs, schedule } = scheduled();
    schedule.storeGrew();
    await clock.advance(0);
    schedule.storeGrew();
    schedule.dispose();
    assert.equal(clock.pending, 0);
    schedule.storeGrew();
    await clock.advance(5 * RETENTION_INTERVAL_MS);
    assert.equal(runs.length, 1);
  });

  it('takes a session added or a journal grown as growth, not a rename, a pin or a removal', () => {
    const change = (kind: StoreChange['kind']): StoreChange => ({ kind, sessionId: 's' });
    assert.deepEqual(
      (['added', 'journal', 'meta', 'removed'] as const).map((kind) => growsStore(change(kind))),
      [true, true, false, false],
    );
  });
});
