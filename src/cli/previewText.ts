/**
 * What the wrapper (`run`) and `keep` print of a long output besides the core's preview: its size limits and the
 * handle line it starts with.
 */
import { groupedCount } from '../core/quantities';
import type { OutputSummary } from '../core/presentation/outputPreview';
import type { KeptInSession } from '../core/store/agentSession';

export { DEFAULT_PREVIEW_CHARS } from '../core/presentation/outputPreview';
/** The least `--preview-chars`: room for the handle line and the ways to read the output. */
export const MIN_PREVIEW_CHARS = 1_000;

/** `fd:3 in session Claude Code 2026-01-31 14:05 (1a2b3c4d): the whole output, 1,234 characters, 56 lines, exit code 2.` */
export function handleLine(kept: KeptInSession, output: Pick<OutputSummary, 'chars' | 'lines'>, how: string): string {
  return (
    `${kept.fd} in session ${oneLine(kept.session.name)} (${kept.session.id}): the whole output, ` +
    `${counted(output.chars, 'character')}, ${counted(output.lines, 'line')}, ${how}.`
  );
}

/** `1 line`, `20,402 lines`. */
function counted(count: number, noun: string): string {
  return `${groupedCount(count)} ${noun}${count === 1 ? '' : 's'}`;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').slice(0, 300);
}
