import type { Descriptor } from '../descriptors/descriptorTable';
import { refDescriptorId } from '../ids';
import type { ExtractResult } from '../refs/types';
import { byteSize, lineCount } from '../quantities';

/** The tree's description of a ref: `python · 12 lines · v2` (`text` when it has no language). */
export function refDescription(
  descriptor: Pick<Descriptor, 'language'> & { readonly content: { readonly totalLines: number } },
  versions: number,
): string {
  return `${descriptor.language ?? 'text'} · ${lineCount(descriptor.content.totalLines)} · v${versions}`;
}

/** The tree's description of a descriptor of `utf8Bytes` bytes: `tool_output (read_file) · 1.2 KB`. */
export function descriptorDescription(
  descriptor: Pick<Descriptor, 'source' | 'toolName' | 'extractedFrom'>,
  utf8Bytes: number,
): string {
  const from = descriptor.toolName ?? descriptor.extractedFrom;
  const source = from === undefined ? descriptor.source : `${descriptor.source} (${from})`;
  return `${source} · ${byteSize(utf8Bytes)}`;
}

/** The first non-blank line of a text, trimmed and cut to `max` characters, for a one-line preview. */
export function previewLine(text: string, max = 80): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The first `count` lines of a text and whether more follow. */
export function firstLines(text: string, count: number): { text: string; more: boolean } {
  const lines = text.split('\n');
  if (lines.length <= count) return { text, more: false };
  return { text: lines.slice(0, count).join('\n'), more: true };
}

/** A backtick fence longer than any backtick run in `text`, so the text cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** What a capture found, for the message shown after it: the count and ids, then each diagnostic. */
export function captureSummary(result: ExtractResult, sessionName: string): { message: string; problems: string[] } {
  const ids = [...new Set(result.refs.map((r) => r.id))];
  const count = result.refs.length;
  const problems = result.diagnostics.map((d) => d.message);
  const found =
    count === 0
      ? 'No refs found'
      : `Captured ${count} ${count === 1 ? 'ref' : 'refs'} (${ids.map((id) => refDescriptorId(id)).join(', ')}) into "${sessionName}"`;
  const issues =
    problems.length === 0
      ? '.'
      : `; ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}: ${problems.join('; ')}.`;
  return { message: `${found}${issues}`, problems };
}

/** Local calendar date `YYYY-MM-DD`. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
