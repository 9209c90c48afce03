/**
 * A separate process working on a store (as another VS Code window or an MCP server would), started by
 * `startStoreWorker` (workers.ts). It prints one JSON line per change that completed (`{"ack": ...}`), so the
 * test knows exactly what must survive, whenever the process is killed.
 */
import { SessionBusyError, Store, type SessionWriter } from '../../../src/core/store';

export type WorkerJob =
  /** Creates a session of its own and makes `changes` changes in it. */
  | { readonly mode: 'own'; readonly root: string; readonly changes: number; readonly seed: number }
  /**
   * Writes session `id` (creating it, or taking it over from a dead owner) until killed; it starts once told
   * `go` on stdin, so the next one can load while the current one runs.
   */
  | { readonly mode: 'crash'; readonly root: string; readonly id: string; readonly seed: number }
  /** Takes turns with other processes at session `id`: waits for its lease, makes `changes` changes, gives it up; `rounds` times. */
  | {
      readonly mode: 'contend';
      readonly root: string;
      readonly id: string;
      readonly changes: number;
      readonly rounds: number;
      readonly seed: number;
    };

/** A change the worker completed: a ref version (`ref`, `v`) or a descriptor (`fd`), with its content's length and hash. */
export interface Ack {
  readonly session: string;
  readonly ref?: string;
  readonly v?: number;
  readonly fd?: string;
  readonly message?: string;
  readonly chars: number;
  readonly h: string;
}

/** Seeded pseudo-random numbers (the worker's choices repeat for a seed). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

/** One change: mostly small refs, sometimes a large descriptor (indexed, written in pieces) or a message. */
async function change(writer: SessionWriter, random: () => number, tag: string, n: number): Promise<void> {
  const roll = random();
  const createdAt = new Date().toISOString();
  const print = (ack: Omit<Ack, 'session'>): void =>
    void process.stdout.write(`${JSON.stringify({ ack: { session: writer.id, ...ack } })}\n`);
  if (roll < 0.15) {
    const text = `${tag} big ${n} é🙂\n`.repeat(Math.floor(20_000 + random() * 30_000));
    const content = await writer.putContent(text);
    const fd = await writer.addDescriptor({ source: 'tool_output', toolName: tag, createdAt }, content);
    print({ fd, chars: text.length, h: content.ref.h });
  } else if (roll < 0.25) {
    const id = `${tag}-m${n}`;
    await writer.putMessage({ id, role: 'user', text: `message ${n}`, createdAt });
    print({ message: id, chars: 0, h: '' });
  } else {
    const ref = `${tag}-r${Math.floor(random() * 5)}`;
    const text = `${tag} ref ${n} ${'x'.repeat(Math.floor(random() * 3000))}`;
    const content = await writer.putContent(text);
    const v = await writer.addRefVersion({ id: ref, createdAt }, content);
    print({ ref, v, chars: text.length, h: content.ref.h });
  }
}

async function work(job: WorkerJob): Promise<void> {
  const random = seeded(job.seed);
  const tag = `p${process.pid}`;
  if (job.mode === 'crash') await new Promise((resolve) => process.stdin.once('data', resolve));
  const store = await Store.open(job.root, { durability: 'process' });
  if (job.mode === 'own') {
    const writer = await store.create({ name: tag, origin: { kind: 'chat' }, chat: true });
    process.stdout.write('ready\n');
    for (let n = 0; n < job.changes; n++) await change(writer, random, tag, n);
    await writer.close();
    return;
  }
  if (job.mode === 'crash') {
    const writer = (await store.read(job.id))
      ? await store.openWriter(job.id)
      : await store.create({ id: job.id, name: 'crash', origin: { kind: 'capture' } });
    process.stdout.write('ready\n');
    for (let n = 0; ; n++) await change(writer, random, tag, n);
  }
  process.stdout.write('ready\n');
  for (let round = 0; round < job.rounds; round++) {
    let writer: SessionWriter;
    for (;;) {
      try {
        writer = await store.openWriter(job.id);
        break;
      } catch (error) {
        if (!(error instanceof SessionBusyError)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1 + random() * 10));
      }
    }
    for (let n = 0; n < job.changes; n++) await change(writer, random, tag, round * 1000 + n);
    await writer.close();
  }
}

if (require.main === module) {
  work(JSON.parse(process.argv[2] ?? '{}') as WorkerJob).catch((error: unknown) => {
    process.stderr.write(String(error instanceof Error ? error.stack : error));
    process.exit(1);
  });
}
