/** Replays a saved chat to a model as provider-neutral messages. */
import type { ModelMessage, ModelToolResult } from './modelClient';
import type { ChatMessageRecord } from '../session/transcript';

const NOT_RUN = '<fd_error type="internal_error">This tool did not run: the answer was stopped first.</fd_error>';

/**
 * The messages a model gets for a chat: user text (the paged form when the message was paged), each
 * round of an answer as an assistant message followed by its tool results. Empty rounds are left out
 * and consecutive user messages joined, which every provider accepts.
 */
export function toModelMessages(messages: readonly ChatMessageRecord[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    if (message.role === 'user') {
      const text = message.modelText ?? message.text;
      const last = out[out.length - 1];
      if (last?.role === 'user') out[out.length - 1] = { role: 'user', text: `${last.text}\n\n${text}` };
      else out.push({ role: 'user', text });
      continue;
    }
    for (const round of message.rounds) {
      if (round.text === '' && round.toolCalls.length === 0) continue;
      out.push({
        role: 'assistant',
        text: round.text,
        toolCalls: round.toolCalls.map((call) => ({ id: call.callId, name: call.name, arguments: call.arguments })),
      });
      if (round.toolCalls.length === 0) continue;
      const results: ModelToolResult[] = round.toolCalls.map((call) => ({
        callId: call.callId,
        name: call.name,
        content: call.result ?? NOT_RUN,
        isError: call.status !== 'done',
      }));
      out.push({ role: 'tool', results });
    }
  }
  return out;
}
