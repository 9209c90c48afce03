/**
 * A session as its journal describes it: descriptors, ref versions, the fd counter and chat messages, each
 * pointing at content by reference. Applying the records in order gives the same state in every process.
 */
import { formatDescriptorId, refDescriptorId } from '../ids';
import { describeIssues } from '../tools/schemas';
import {
  journalRecord,
  type ContentRef,
  type FdEntry,
  type FdStartEntry,
  type JournalEntry,
  type RefEntry,
} from './records';

/** A chat message as recorded: inline, or (when large) in a content file. */
export type MessageSlot =
  | {
      readonly id: string;
      readonly kind: 'inline';
      readonly message: { readonly id: string; readonly [key: string]: unknown };
      readonly textFd?: string;
    }
  | { readonly id: string; readonly kind: 'file'; readonly content: ContentRef };

/** What a batch of records changed, for the listeners of another process's session. */
export interface StateChange {
  descriptors: boolean;
  readonly refIds: Set<string>;
  messages: boolean;
  model: boolean;
}

export function noChange(): StateChange {
  return { descriptors: false, refIds: new Set(), messages: false, model: false };
}

export function changed(change: StateChange): boolean {
  return change.descriptors || change.refIds.size > 0 || change.messages || change.model;
}

/** Thrown for a record that is well framed but says something impossible (a version out of order). */
export class InvalidRecordError extends Error {}

/** A descriptor still growing: how it started, and how much of its file its writer has said is written. */
export interface GrowingEntry {
  readonly start: FdStartEntry;
  readonly chars: number;
  readonly bytes: number;
  readonly lines: number;
}

export class SessionState {
  nextFd = 1;
  /** The complete descriptors. */
  readonly fds = new Map<number, FdEntry>();
  /** The descriptors still growing (started, not yet completed by an `fd` record of their number). */
  readonly growing = new Map<number, GrowingEntry>();
  readonly refs = new Map<string, RefEntry[]>();
  readonly messages: MessageSlot[] = [];
  private readonly messageIndex = new Map<string, number>();
  model: string | undefined;
  /** The journal's generation (its header record); a journal with another one was replaced. */
  generation: string | undefined;

  /**
   * Checks a record read from a journal and applies it; throws `InvalidRecordError` when it cannot apply.
   * `afterDamage` says damaged records came before it (see `decodeRecords`): a ref version may then follow a
   * lost one, and takes the next number, so the ref's content is kept (its latest version stays its latest).
   * Returns the record as applied.
   */
  applyValue(value: unknown, change: StateChange, afterDamage = false): JournalEntry {
    const parsed = journalRecord.safeParse(value);
    if (!parsed.success) throw new InvalidRecordError(`Invalid journal record: ${describeIssues(parsed.error)}`);
    let entry = parsed.data;
    if (afterDamage && entry.t === 'ref') {
      const next = this.refVersionCount(entry.id) + 1;
      if (entry.v > next) entry = { ...entry, v: next };
    }
    this.apply(entry, change);
    return entry;
  }

  apply(entry: JournalEntry, change: StateChange): void {
    switch (entry.t) {
      case 'journal':
        this.generation = entry.gen;
        return;
      case 'fd':
        if (this.fds.has(entry.n))
          throw new InvalidRecordError(`${formatDescriptorId({ kind: 'fd', number: entry.n })} is recorded twice.`);
        this.growing.delete(entry.n); // completes it, if it was growing
        this.fds.set(entry.n, entry);
        if (entry.n >= this.nextFd) this.nextFd = entry.n + 1;
        change.descriptors = true;
        return;
      case 'fdStart':
        if (this.fds.has(entry.n) || this.growing.has(entry.n))
          throw new InvalidRecordError(`${formatDescriptorId({ kind: 'fd', number: entry.n })} is recorded twice.`);
        this.growing.set(entry.n, { start: entry, chars: 0, bytes: 0, lines: 0 });
        if (entry.n >= this.nextFd) this.nextFd = entry.n + 1;
        change.descriptors = true;
        return;
      case 'grew': {
        const growing = this.growing.get(entry.n);
        // A record about a descriptor completed or never started says nothing more (a replayed tail, damage).
        if (growing === undefined || entry.bytes < growing.bytes) return;
        this.growing.set(entry.n, { start: growing.start, chars: entry.chars, bytes: entry.bytes, lines: entry.lines });
        change.descriptors = true;
        return;
      }
      case 'ref': {
        const versions = this.refs.get(entry.id) ?? [];
        if (entry.v !== versions.length + 1)
          throw new InvalidRecordError(`${refDescriptorId(entry.id, entry.v)} follows version ${versions.length}.`);
        versions.push(entry);
        this.refs.set(entry.id, versions);
        change.refIds.add(entry.id);
        return;
      }
      case 'counter':
        this.nextFd = entry.nextFd;
        change.descriptors = true;
        return;
      case 'message':
        this.putMessage({
          id: entry.m.id,
          kind: 'inline',
          message: entry.m,
          ...(entry.textFd === undefined ? {} : { textFd: entry.textFd }),
        });
        change.messages = true;
        return;
      case 'messageFile':
        this.putMessage({ id: entry.id, kind: 'file', content: entry.c });
        change.messages = true;
        return;
      case 'truncate': {
        const index = this.messageIndex.get(entry.from);
        if (index !== undefined) {
          for (const removed of this.messages.splice(index)) this.messageIndex.delete(removed.id);
        }
        change.messages = true;
        return;
      }
      case 'model':
        this.model = entry.model ?? undefined;
        change.model = true;
        return;
    }
  }

  /** How many versions ref `id` has. */
  refVersionCount(id: string): number {
    return this.refs.get(id)?.length ?? 0;
  }

  private putMessage(slot: MessageSlot): void {
    const index = this.messageIndex.get(slot.id);
    if (index === undefined) this.messageIndex.set(slot.id, this.messages.push(slot) - 1);
    else this.messages[index] = slot;
  }
}
