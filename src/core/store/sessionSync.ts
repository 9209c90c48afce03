/**
 * Saves an in-memory `Session` (and its chat) to its writer by difference: what the writer already holds is
 * not looked at again, so a save after adding one ref costs that ref, whatever the session holds. This is how
 * today's registry, which changes sessions in place and then says "changed", can use the store unchanged.
 */
import type { ChatMessageRecord, ChatRecord } from '../session/transcript';
import { isDeepStrictEqual } from 'node:util';
import { Content } from '../descriptors/content';
import { copyDescriptorDetails } from '../descriptors/descriptorDetails';
import type { TextSource } from '../descriptors/textSource';
import { contentDigest } from '../descriptors/contentDigest';
import { parseDescriptorId, refDescriptorId } from '../ids';
import type { Session } from '../session/session';
import type { ContentRef } from './records';
import type { SessionWriter } from './sessionWriter';
import { StoredContent } from './storedContent';

interface SavedMessage {
  readonly id: string;
  /** The object saved (compared by identity), or undefined for one read from the store. */
  readonly object: object | undefined;
  /** Its JSON as saved, when known. */
  readonly json: string | undefined;
  /** A message that will not change again (a user message, an answer that has ended). */
  readonly final: boolean;
}

/** What one `sync` wrote. */
export interface SyncResult {
  readonly descriptors: readonly string[];
  readonly refIds: readonly string[];
  readonly messages: number;
}

export class SessionSync {
  private readonly written = new WeakMap<TextSource, ContentRef>();
  private saved: SavedMessage[];
  private model: string | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private queued: Promise<SyncResult> | undefined;

  constructor(private readonly writer: SessionWriter) {
    this.model = writer.state.model;
    this.saved = writer.state.messages.map((slot) => ({
      id: slot.id,
      object: undefined,
      json: slot.kind === 'inline' && slot.textFd === undefined ? JSON.stringify(slot.message) : undefined,
      final: slot.kind === 'file' || slot.textFd !== undefined,
    }));
  }

  /**
   * Writes what `session` and `chat` hold beyond what was written. A call made while another is waiting to
   * start joins it (it writes the state as it is when it starts).
   */
  sync(session: Session, chat?: ChatRecord): Promise<SyncResult> {
    if (this.queued) return this.queued;
    const run = this.running.then(() => {
      this.queued = undefined;
      return this.write(session, chat);
    });
    this.queued = run;
    this.running = run.catch(() => undefined);
    return run;
  }

  private async write(session: Session, chat: ChatRecord | undefined): Promise<SyncResult> {
    const state = this.writer.state;
    const descriptors: string[] = [];
    for (const descriptor of session.descriptors()) {
      const parts = parseDescriptorId(descriptor.id);
      if (parts?.kind !== 'fd' || state.fds.has(parts.number)) continue;
      const content = await this.put(descriptor.content);
      const details = {
        n: parts.number,
        source: descriptor.source,
        ...copyDescriptorDetails(descriptor),
        createdAt: descriptor.createdAt,
      };
      descriptors.push(await this.writer.addDescriptor(details, content));
    }
    const refIds: string[] = [];
    for (const { descriptor, versions } of session.refs()) {
      const parts = parseDescriptorId(descriptor.id);
      if (parts?.kind !== 'ref') continue;
      for (let v = state.refVersionCount(parts.refId) + 1; v <= versions; v++) {
        const version = session.getDescriptor(refDescriptorId(parts.refId, v));
        if (version === undefined) break;
        const content = await this.put(version.content);
        const details = {
          id: parts.refId,
          createdAt: version.createdAt,
          ...(version.language === undefined ? {} : { language: version.language }),
        };
        await this.writer.addRefVersion(details, content);
        if (refIds.at(-1) !== parts.refId) refIds.push(parts.refId);
      }
    }
    if (session.nextFd !== state.nextFd) await this.writer.setNextFd(session.nextFd);
    const messages = chat === undefined ? 0 : await this.writeChat(session, chat);
    return { descriptors, refIds, messages };
  }

  private async writeChat(session: Session, chat: ChatRecord): Promise<number> {
    if (chat.model !== this.model) {
      await this.writer.setModel(chat.model);
      this.model = chat.model;
    }
    const messages = chat.messages;
    let same = 0;
    while (same < messages.length && same < this.saved.length && this.saved[same]?.id === messages[same]?.id) same++;
    const removed = this.saved[same];
    if (removed !== undefined) {
      await this.writer.truncateMessages(removed.id);
      this.saved = this.saved.slice(0, same);
    }
    let written = 0;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i] as ChatMessageRecord;
      const saved = this.saved[i];
      if (saved !== undefined && saved.final && (saved.object === message || saved.object === undefined)) continue;
      const textFd = textDescriptorOf(session, message);
      const json = textFd === undefined ? JSON.stringify(message) : undefined;
      if (
        saved !== undefined &&
        saved.object !== undefined &&
        !isFinal(message) &&
        json !== undefined &&
        saved.json !== undefined &&
        json.length < STREAMING_GROWTH * saved.json.length
      ) {
        // An answer still streaming is recorded again only once it has doubled since its last record, so its
        // records add up to a few times its final size however often the chat saves (each ref that closes saves),
        // never a copy per save. Its refs are saved by their own records meanwhile; it is recorded whole when done.
        continue;
      }
      if (saved !== undefined && json !== undefined && saved.json !== undefined && sameJson(json, saved)) {
        // Read from the store (keys perhaps in another order) or unchanged: remembered, not written again.
        this.saved[i] = { ...saved, object: message, json, final: isFinal(message) };
        continue;
      }
      // Whether it has ended is read now, with its JSON: the conversation changes the message in place, and an
      // answer that ends while this record is being written must be written again by the next save, not skipped
      // as if its streaming text were final.
      const final = isFinal(message);
      await this.writer.putMessage(message, textFd);
      this.saved[i] = { id: message.id, object: message, json, final };
      written++;
    }
    return written;
  }

  /**
   * Where `content` is in this session: a content of this session's folder as it is (not read, not written
   * again), another session's (a fork's parent) linked in, an in-memory one written.
   */
  private async put(content: TextSource): Promise<ContentRef> {
    if (content instanceof StoredContent && content.folder === this.writer.contentFolder) return content.ref;
    let ref = this.written.get(content);
    if (ref === undefined) {
      if (content instanceof StoredContent) ref = (await this.writer.importContent(content)).ref;
      else if (content instanceof Content) ref = (await this.writer.putContent(content.text)).ref;
      else throw new Error(`A content of ${content.length} characters is neither in memory nor in the store.`);
      this.written.set(content, ref);
    }
    return ref;
  }
}

/** How much a streaming answer grows between two of its records (see `writeChat`). */
const STREAMING_GROWTH = 2;

/** A message that will not change again: a user message, an answer that has ended. */
function isFinal(message: ChatMessageRecord): boolean {
  return message.role === 'user' || message.status !== 'streaming';
}

/** Whether `json` is what `saved` recorded: the same text, or (a message read from the store) the same data. */
function sameJson(json: string, saved: SavedMessage): boolean {
  if (json === saved.json) return true;
  return saved.object === undefined && isDeepStrictEqual(JSON.parse(json), JSON.parse(saved.json as string));
}

/**
 * The descriptor a paged user message's text went to, when it holds exactly that text (it is then kept once). A
 * stored descriptor is compared by length and the store's name for the text, without reading it.
 */
function textDescriptorOf(session: Session, message: ChatMessageRecord): string | undefined {
  if (message.role !== 'user' || message.descriptor === undefined) return undefined;
  const descriptor = session.getDescriptor(message.descriptor.id);
  if (descriptor === undefined || descriptor.content.length !== message.text.length) return undefined;
  const content = descriptor.content;
  if (content instanceof Content) return content.text === message.text ? descriptor.id : undefined;
  const digest = contentDigest(message.text);
  return content.ref?.h === digest.h && content.ref.enc === digest.enc ? descriptor.id : undefined;
}
