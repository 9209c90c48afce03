/**
 * fdref's entries in the agents' plain-text files: a block of instructions in a Markdown file the agent reads
 * into its context (QWEN.md, a Continue rule), between two marker comments so it can be replaced and removed
 * without touching the user's own text; and the executable hook script Cline runs (`PreToolUse.sh`), which fdref
 * owns whole and never writes over someone else's.
 */
import { AgentConfigError } from '../mergeServerEntry';
import { isFdrefHookCommand } from './wrapperCommand';

const BLOCK_BEGIN = '<!-- fdref: begin (written by FD Refs: Connect an Agent; Disconnect removes it) -->';
const BLOCK_END = '<!-- fdref: end -->';

/** `existing` with fdref's block set to `body`: replaced where it is, else appended after a blank line. */
export function mergeInstructionsBlock(existing: string | undefined, body: string): string {
  const eol = existing?.includes('\r\n') === true ? '\r\n' : '\n';
  const block = [BLOCK_BEGIN, ...body.trimEnd().split('\n'), BLOCK_END].join(eol);
  const text = existing ?? '';
  const span = blockSpan(text);
  if (span !== undefined) return text.slice(0, span.start) + block + text.slice(span.end);
  if (text === '') return block + eol;
  return text + (text.endsWith('\n') ? eol : eol + eol) + block + eol;
}

/** `existing` without fdref's block (and the blank line that set it apart), or undefined when there is none. */
export function removeInstructionsBlock(existing: string | undefined): string | undefined {
  if (existing === undefined) return undefined;
  const span = blockSpan(existing);
  if (span === undefined) return undefined;
  let start = span.start;
  let end = span.end;
  if (existing.startsWith('\r\n', end)) end += 2;
  else if (existing[end] === '\n') end++;
  // The blank line before the block was added with it.
  if (existing.slice(0, start).endsWith('\r\n\r\n')) start -= 2;
  else if (existing.slice(0, start).endsWith('\n\n')) start -= 1;
  return existing.slice(0, start) + existing.slice(end);
}

function blockSpan(text: string): { start: number; end: number } | undefined {
  const start = text.indexOf(BLOCK_BEGIN);
  if (start < 0) return undefined;
  const endMarker = text.indexOf(BLOCK_END, start);
  if (endMarker < 0) return undefined;
  return { start, end: endMarker + BLOCK_END.length };
}

const SCRIPT_MARK = "# fdref's hook: written by FD Refs: Connect an Agent; Disconnect removes it.";

/** The hook script that runs `hookCommand` (a POSIX shell command line) with the agent's stdin. */
export function hookScript(hookCommand: string): string {
  return `#!/bin/sh\n${SCRIPT_MARK}\nexec ${hookCommand}\n`;
}

/** Whether a script is one fdref wrote (any version): its mark, and an `exec` of fdref's hook. */
export function isFdrefHookScript(text: string): boolean {
  const lines = text.split('\n');
  return lines[1] === SCRIPT_MARK && isFdrefHookCommand(lines[2]?.replace(/^exec /, ''));
}

/** The script to write, refusing to replace a file that is not fdref's; throws {@link AgentConfigError}. */
export function mergeHookScript(existing: string | undefined, hookCommand: string, fileLabel: string): string {
  if (existing !== undefined && existing.trim() !== '' && !isFdrefHookScript(existing)) {
    throw new AgentConfigError(
      `${fileLabel} is someone else's hook; fdref does not replace it. Move it aside (or merge it by hand), then connect again; nothing was written.`,
    );
  }
  return hookScript(hookCommand);
}
