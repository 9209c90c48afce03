/** Turns the saved transcript into what the webview shows. */
import { extractRefs } from '../refs/extract';
import type { ExtractedRef, RefDiagnostic } from '../refs/types';
import type { MessageView, RefView, RoundView, ToolCallView } from './protocol';
import type { ChatMessageRecord, RoundRecord, ToolCallRecord } from '../session/transcript';
import { RESULT_VIEW_LIMIT, USER_TEXT_VIEW_LIMIT } from './protocolLimits';
import { toolCallHeadline } from './toolSummary';

/** The view of one saved message. */
export function messageView(message: ChatMessageRecord): MessageView {
  if (message.role === 'user') {
    const cut = message.text.length > USER_TEXT_VIEW_LIMIT;
    return {
      role: 'user',
      id: message.id,
      text: cut ? message.text.slice(0, USER_TEXT_VIEW_LIMIT) : message.text,
      ...(cut ? { fullChars: message.text.length } : {}),
      createdAt: message.createdAt,
      ...(message.descriptor === undefined ? {} : { descriptor: message.descriptor }),
    };
  }
  return {
    role: 'assistant',
    id: message.id,
    rounds: message.rounds.map(roundView),
    status: message.status,
    createdAt: message.createdAt,
    ...(message.model === undefined ? {} : { model: message.model }),
    ...(message.error === undefined ? {} : { error: message.error }),
  };
}

/** A round's view: its refs (with the versions they got) and diagnostics worked out from its text. */
export function roundView(round: RoundRecord): RoundView {
  const result = extractRefs(round.text);
  return {
    text: round.text,
    refs: refViews(result.refs, round.refVersions),
    diagnostics: result.diagnostics.map(diagnosticView),
    toolCalls: round.toolCalls.map(toolCallView),
  };
}

/** Views of a round's refs; `versions[i]` is the version `refs[i]` got. Inner refs are marked `nested`. */
export function refViews(refs: readonly ExtractedRef[], versions: readonly number[]): RefView[] {
  const views: RefView[] = [];
  // Refs are in the order of their opening tags, so the ones still open form a stack.
  const open: ExtractedRef[] = [];
  refs.forEach((ref, i) => {
    while (open.length > 0 && (open[open.length - 1] as ExtractedRef).end <= ref.start) open.pop();
    views.push(refView(ref, versions[i] ?? 1, open.length > 0));
    open.push(ref);
  });
  return views;
}

export function refView(ref: ExtractedRef, version: number, nested: boolean): RefView {
  return {
    id: ref.id,
    version,
    start: ref.start,
    end: ref.end,
    ...(ref.language === undefined ? {} : { language: ref.language }),
    lines: ref.content === '' ? 0 : countLines(ref.content),
    chars: ref.content.length,
    nested,
  };
}

export function diagnosticView(diagnostic: RefDiagnostic): { message: string; offset: number } {
  return { message: diagnostic.message, offset: diagnostic.offset };
}

export function toolCallView(call: ToolCallRecord): ToolCallView {
  const result = call.result;
  const truncated = result !== undefined && result.length > RESULT_VIEW_LIMIT;
  const headline = toolCallHeadline(call);
  return {
    callId: call.callId,
    name: call.name,
    arguments: call.arguments.length > RESULT_VIEW_LIMIT ? call.arguments.slice(0, RESULT_VIEW_LIMIT) : call.arguments,
    status: call.status,
    ...(result === undefined ? {} : { result: truncated ? result.slice(0, RESULT_VIEW_LIMIT) : result }),
    ...(truncated ? { resultTruncated: true } : {}),
    ...(call.descriptor === undefined ? {} : { descriptor: call.descriptor }),
    ...(call.summary === undefined ? {} : { summary: call.summary }),
    ...(headline === undefined ? {} : { headline }),
    ...(call.confirmation === undefined ? {} : { confirmation: call.confirmation }),
    ...(call.unanswered === true ? { unanswered: true } : {}),
  };
}

function countLines(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
