import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { LiveSearch, type LiveState } from '../../../../src/core/presentation/liveSearch';

/** A search whose answers the test gives, one per call, in any order. */
function scriptedSearch() {
  const calls: { text: string; answer: (value: string) => void; fail: (error: Error) => void }[] = [];
  const run = (text: string) =>
    new Promise<string>((resolve, reject) => calls.push({ text, answer: resolve, fail: reject }));
  return { calls, run };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('LiveSearch', () => {
  it('searches once typing pauses, for the last text typed, and shows busy until it answers', async () => {
    const { calls, run } = scriptedSearch();
    const shown: LiveState<string>[] = [];
    const live = new LiveSearch(run, (state) => shown.push(state), 20);
    for (const text of ['e', 'er', 'err']) live.type(text);
    await until(() => calls.length === 1, 'the search to start');
    assert.equal(calls[0]?.text, 'err');
    assert.deepEqual(shown.at(-1), { kind: 'busy', text: 'err' });
    calls[0]?.answer('3 hits');
    await until(() => shown.at(-1)?.kind === 'result', 'the result');
    assert.deepEqual(shown.at(-1), { kind: 'result', text: 'err', result: '3 hits' });
    live.dispose();
  });

  it('ignores the answer to an older text once a newer one is asked for, even when it comes last', async () => {
    const { calls, run } = scriptedSearch();
    const shown: LiveState<string>[] = [];
    const live = new LiveSearch(run, (state) => shown.push(state), 5);
    live.type('err');
    await until(() => calls.length === 1, 'the first search');
    live.type('error');
    await until(() => calls.length === 2, 'the second search');
    calls[1]?.answer('for error');
    await until(() => shown.at(-1)?.kind === 'result', 'the newer result');
    calls[0]?.answer('for err');
    await turn();
    await turn();
    assert.deepEqual(
      shown.filter((s) => s.kind === 'result'),
      [{ kind: 'result', text: 'error', result: 'for error' }],
    );
    live.dispose();
  });

  it('does not search again for the text being searched, and shows idle at once for a blank text', async () => {
    const { calls, run } = scriptedSearch();
    const shown: LiveState<string>[] = [];
    const live = new LiveSearch(run, (state) => shown.push(state), 5);
    live.type('error');
    await until(() => calls.length === 1, 'the search');
    live.type('error');
    live.type('  ');
    assert.deepEqual(shown.at(-1), { kind: 'idle' });
    calls[0]?.answer('late');
    await turn();
    await turn();
    assert.equal(calls.length, 1);
    assert.deepEqual(shown.at(-1), { kind: 'idle' }, 'the answer for a text no longer typed is not shown');
    live.dispose();
  });

  it('shows why a search failed, for the text it was asked for', async () => {
    const { calls, run } = scriptedSearch();
    const shown: LiveState<string>[] = [];
    const live = new LiveSearch(run, (state) => shown.push(state), 5);
    live.type('!!');
    await until(() => calls.length === 1, 'the search');
    calls[0]?.fail(new Error('needs a word'));
    await until(() => shown.at(-1)?.kind === 'failed', 'the failure');
    const last = shown.at(-1);
    assert.ok(last?.kind === 'failed');
    assert.equal(last.text, '!!');
    assert.match(String(last.error), /needs a word/);
    live.dispose();
  });

  it('starts nothing and shows nothing more once disposed', async () => {
    const { calls, run } = scriptedSearch();
    const shown: LiveState<string>[] = [];
    // A clock the test runs by hand: what is still scheduled is in `pending`.
    const pending = new Map<number, () => void>();
    let next = 0;
    const timers = {
      set: (fire: () => void) => {
        pending.set(++next, fire);
        return next;
      },
      clear: (handle: unknown) => pending.delete(handle as number),
    };
    const live = new LiveSearch(run, (state) => shown.push(state), 5, timers);
    live.type('first');
    for (const [handle, fire] of [...pending]) {
      pending.delete(handle);
      fire();
    }
    assert.equal(calls.length, 1);
    live.type('second');
    assert.equal(pending.size, 1, 'the search for "second" is scheduled');
    live.dispose();
    assert.equal(pending.size, 0, 'and no longer once disposed');
    calls[0]?.answer('late');
    live.type('third');
    assert.equal(pending.size, 0, 'typing after dispose schedules nothing');
    await turn();
    assert.equal(calls.length, 1);
    assert.deepEqual(shown.at(-1), { kind: 'busy', text: 'second' }, 'the late answer is not shown');
  });
});
