/**
 * One model response streamed into a round of an answer: text goes to the webview as it arrives and through the
 * `<ref>` parser, each ref is registered in the session as it closes, and the tool calls are collected.
 */
import { RefStreamParser } from '../refs/extract';
import type { ExtractedRef, RefEvent } from '../refs/types';
import type { Session } from '../session/session';
import type { ConversationListener } from './conversationHost';
import type { ModelClient, ModelRequest, ModelToolCall } from './modelClient';
import type { AssistantMessageRecord, RoundRecord } from '../session/transcript';
import { diagnosticView, refView, refViews } from './views';

/**
 * Streams one response of `client` into a new round of `message` and returns the tool calls it made (recorded
 * in the round as running). A stopped or failed stream throws after the round has ended: the refs that closed
 * are kept, and the text so far is shown.
 */
export async function streamRound(
  client: ModelClient,
  request: ModelRequest,
  message: AssistantMessageRecord,
  session: Session,
  listener: ConversationListener,
  signal: AbortSignal,
): Promise<ModelToolCall[]> {
  const round = message.rounds.length;
  const record: RoundRecord = { text: '', refVersions: [], toolCalls: [] };
  message.rounds.push(record);
  listener.post({ type: 'roundStarted', messageId: message.id, round });
  const parser = new RefStreamParser();
  const refs = new RoundRefs(session, listener);
  const calls: ModelToolCall[] = [];
  const onEvents = (events: readonly RefEvent[]): void => {
    for (const event of events) {
      if (event.type === 'open') {
        listener.post({
          type: 'refOpened',
          messageId: message.id,
          round,
          index: event.index,
          offset: event.offset,
          ...(event.id === undefined ? {} : { id: event.id }),
        });
      } else if (event.type === 'close') {
        const ref = event.ref;
        listener.post({
          type: 'refClosed',
          messageId: message.id,
          round,
          index: event.index,
          offset: event.offset,
          // Nesting is settled by `roundEnded`; while streaming a closed ref is shown where it opened.
          ...(ref === undefined ? {} : { ref: refView(ref, refs.register(ref), false) }),
        });
      }
    }
    refs.report();
  };
  try {
    for await (const event of client.stream(request, signal)) {
      if (event.type === 'text') {
        if (event.text === '') continue;
        record.text += event.text;
        listener.post({ type: 'textDelta', messageId: message.id, round, text: event.text });
        const events = parser.push(event.text);
        if (events.length > 0) onEvents(events);
      } else if (event.type === 'toolCall') {
        calls.push(event.call);
      }
    }
  } finally {
    // Also for a stopped or failed stream: the refs that closed are kept, the text so far is shown.
    const { result, events } = parser.endWithEvents();
    onEvents(events);
    record.refVersions = result.refs.map((ref) => refs.register(ref));
    refs.report();
    listener.post({
      type: 'roundEnded',
      messageId: message.id,
      round,
      refs: refViews(result.refs, record.refVersions),
      diagnostics: result.diagnostics.map(diagnosticView),
    });
  }
  record.toolCalls = calls.map((call) => ({
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
    status: 'running',
  }));
  return calls;
}

/**
 * The one place a round's refs are registered: each ref (known by where it starts) once, when it is first seen
 * closed, while streaming or at the end. `report` tells the listener about the ids registered since the last report.
 */
class RoundRefs {
  private readonly versions = new Map<number, number>();
  private unreported: string[] = [];

  constructor(
    private readonly session: Session,
    private readonly listener: ConversationListener,
  ) {}

  /** The version `ref` got, registering it in the session the first time it is seen. */
  register(ref: ExtractedRef): number {
    let version = this.versions.get(ref.start);
    if (version === undefined) {
      version = this.session.registerRef(ref);
      this.versions.set(ref.start, version);
      this.unreported.push(ref.id);
    }
    return version;
  }

  report(): void {
    if (this.unreported.length === 0) return;
    this.listener.refsRegistered(this.unreported);
    this.unreported = [];
  }
}
