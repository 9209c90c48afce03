/**
 * Rendering happens in animation frames, never in a message handler: handlers only record what changed
 * and schedule the parts that must redraw. Each frame works through them within a time budget, so a
 * burst of thousands of deltas costs one render per frame, and a long static message renders in slices
 * instead of one long task.
 */
import { perf } from './perf';

export interface Renderable {
  /** Does some work; returns true when more is left for a later frame. Stop once `deadline` has passed. */
  render(deadline: number): boolean;
}

/** Time a frame may spend rendering (leaves the rest of a 60 Hz frame for layout and paint). */
const FRAME_BUDGET_MS = 10;

export class RenderScheduler {
  private queue = new Set<Renderable>();
  private frame = 0;

  schedule(renderable: Renderable): void {
    this.queue.add(renderable);
    if (this.frame === 0) this.frame = requestAnimationFrame(this.run);
  }

  get idle(): boolean {
    return this.queue.size === 0;
  }

  /** Drops all pending work (the view starts over). */
  clear(): void {
    this.queue.clear();
  }

  private readonly run = (): void => {
    this.frame = 0;
    const start = performance.now();
    const deadline = start + FRAME_BUDGET_MS;
    const work = this.queue;
    this.queue = new Set();
    const unfinished: Renderable[] = [];
    for (const renderable of work) {
      // Past the deadline, the rest waits for the next frame, ahead of what already had its turn.
      if (performance.now() > deadline) this.queue.add(renderable);
      else if (renderable.render(deadline)) unfinished.push(renderable);
    }
    for (const renderable of unfinished) this.queue.add(renderable);
    perf?.frames.push(performance.now() - start);
    if (this.queue.size > 0 && this.frame === 0) this.frame = requestAnimationFrame(this.run);
  };
}
