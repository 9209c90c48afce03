import type { CommandRun } from '../descriptors/descriptorDetails';
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

/** The most characters of a command line a label shows. */
const LABEL_COMMAND_CHARS = 60;

/** A kept command's label in the tree: `fd:3 · seq 1 100000` (its first line, cut short). */
export function commandLabel(id: string, command: Pick<CommandRun, 'commandLine'>): string {
  return `${id} · ${previewLine(command.commandLine, LABEL_COMMAND_CHARS)}`;
}

/**
 * A kept command's description: `exit 0 · 688,915 chars`, `exit 3 · …`, `exit unknown · …`, `running when kept ·
 * …`, `cut at 1.0 MB of 2,000,000 chars` when the cap cut it, and `last 4.0 MB of 9,000,000 chars` when only its end
 * was kept (held in memory for Keep Last Terminal Output).
 */
export function commandDescription(command: CommandRun, keptUtf8Bytes: number): string {
  const status = command.unfinished
    ? 'running when kept'
    : command.exitCode === undefined
      ? 'exit unknown'
      : `exit ${command.exitCode}`;
  const size = command.cut
    ? `cut at ${byteSize(keptUtf8Bytes)} of ${formatCount(command.outputChars)} chars`
    : command.startDroppedChars
      ? `last ${byteSize(keptUtf8Bytes)} of ${formatCount(command.outputChars)} chars`
      : `${formatCount(command.outputChars)} chars`;
  return `${status} · ${size}`;
}

/** The lines of a kept command's tooltip: the command line, folder, times, exit code and size. */
export function commandTooltipLines(command: CommandRun, formatDate: (iso: string) => string): string[] {
  const lines = [`$ ${command.commandLine}`];
  if (command.cwd !== undefined) lines.push(`In ${command.cwd}`);
  lines.push(`Started ${formatDate(command.startedAt)}`);
  if (command.endedAt !== undefined) lines.push(`Ended ${formatDate(command.endedAt)}`);
  if (command.unfinished) lines.push('Still running when its output was kept: what had arrived is kept');
  lines.push(command.exitCode === undefined ? 'Exit code not reported' : `Exit code ${command.exitCode}`);
  lines.push(
    command.cut
      ? `Cut at the size cap (fdref.terminal.maxMegabytes): ${formatCount(command.outputChars)} characters seen, the first part kept`
      : command.startDroppedChars
        ? `The start was dropped: ${formatCount(command.outputChars)} characters printed, the last ${formatCount(command.outputChars - command.startDroppedChars)} kept`
        : `${formatCount(command.outputChars)} characters of output`,
  );
  return lines;
}

/** `688,915`. */
function formatCount(n: number): string {
  return n.toLocaleString('en-US');
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

/** Local date and time to the minute, `YYYY-MM-DD HH:MM` (what a session made by a tool is named after). */
export function localMinute(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${localDay(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
