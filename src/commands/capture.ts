import { captureSummary, localDay } from '../core/presentation/describe';
import type { ExtractResult } from '../core';
import type { UserMessages } from '../common/userMessages';
import type { SessionRegistry } from '../sessions/sessionRegistry';

/** What a capture did: the session that received the refs and what the parser found. */
export interface CaptureResult {
  readonly sessionId: string;
  readonly result: ExtractResult;
}

/**
 * Registers the refs in `text` in today's capture session and tells the user what was found.
 * One capture session per local day: refs captured the same day share a session, so capturing the
 * same id again adds a version that can be compared, while older days stay apart and small.
 */
export async function captureText(
  registry: SessionRegistry,
  messages: UserMessages,
  text: string,
  from: string,
): Promise<CaptureResult> {
  const entry = await registry.daySession('capture', localDay(new Date()));
  const result = await registry.ingest(entry.metadata.id, text);
  const summary = captureSummary(result, entry.metadata.name);
  if (result.refs.length === 0) {
    void messages.warn(`${summary.message} Refs are written as <ref id="name">…</ref> in the ${from}.`);
  } else if (summary.problems.length > 0) {
    void messages.warn(summary.message);
  } else {
    void messages.info(summary.message);
  }
  return { sessionId: entry.metadata.id, result };
}
