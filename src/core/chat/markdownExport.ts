/** A chat as a Markdown document, for "Export Chat as Markdown". */
import type { ChatMessageRecord } from '../session/transcript';

/**
 * The chat as Markdown: a heading per message, answers as the model wrote them (ref tags included, so
 * the export can be captured again), tool calls as collapsible sections with their arguments and results
 * in fences long enough never to be closed by what is inside them.
 */
export function chatToMarkdown(title: string, messages: readonly ChatMessageRecord[]): string {
  const out: string[] = [`# ${title.replace(/[\r\n]+/g, ' ')}`, ''];
  for (const message of messages) {
    if (message.role === 'user') {
      out.push(`## You · ${message.createdAt}`, '');
      if (message.descriptor)
        out.push(
          `*Stored as ${message.descriptor.id} (${message.descriptor.chars} characters, ${message.descriptor.lines} lines).*`,
          '',
        );
      out.push(message.text, '');
      continue;
    }
    out.push(`## ${message.model ?? 'Assistant'} · ${message.createdAt}`, '');
    for (const round of message.rounds) {
      if (round.text !== '') out.push(round.text, '');
      for (const call of round.toolCalls) {
        out.push('<details>', `<summary>Tool call: ${escapeHtml(call.name)} (${call.status})</summary>`, '');
        out.push(fenced(prettyJson(call.arguments), 'json'), '');
        if (call.result !== undefined) out.push(fenced(call.result, 'xml'), '');
        out.push('</details>', '');
      }
    }
    if (message.status === 'stopped') out.push('*Stopped.*', '');
    if (message.status === 'error' && message.error)
      out.push(`> **Error:** ${message.error.message.replace(/\n/g, '\n> ')}`, '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** A fenced block whose fence is longer than any backtick run in `text`. */
export function fenced(text: string, language: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
}
