/**
 * A finished tool call in one line a person reads: "Wrote notes/hello.py, 57 bytes", "Read fd:3 page 2 of 9",
 * "Searched fd:2 for "foo": 12 matches", "Ran `npm test`, exit 1, output in fd:4", "Failed: <first line>". Worked out
 * from the call's record alone (name, arguments, status, the result the model got), so a chat saved long ago reads the
 * same. Each fdref tool says its own line (`ToolRecord.headline`); this file handles what every call shares (denied,
 * failed, not answered, another tool's). Only the opening tag of a result is read, so the cost does not grow with it.
 */
import type { ToolCallRecord } from '../session/transcript';
import type { HeadlinePart } from './protocol';
import {
  type FinishedCall,
  type HeadlineArgs,
  MAX_CODE,
  MAX_PATTERN,
  oneLine,
  openingTag,
  plural,
  SCAN_CHARS,
  short,
  type Tag,
  unwrapCdata,
} from '../tools/headline';
import { ran } from '../tools/runCommand';
import { toolRecord } from '../tools/toolTable';
import { STRUCTS_ENTITY_TOOL } from './toolNames';

export type { HeadlinePart };

/** The longest first line of a failure shown. */
const MAX_LINE = 160;

/** The line for a finished call; undefined while it runs or waits for the user. */
export function toolCallHeadline(call: ToolCallRecord): HeadlinePart[] | undefined {
  if (call.status === 'running' || call.status === 'awaitingConfirmation') return undefined;
  const args = parseArguments(call.arguments);
  if (call.status === 'denied') return denied(call);
  const result = call.result ?? '';
  const root = openingTag(result);
  if (call.status === 'error') {
    if (call.unanswered === true) return [{ text: 'Not answered, so it did not run' }];
    if (root?.name === 'command_result') return ran(finished(call, args, root, result));
    return [{ text: `Failed: ${firstLine(root?.name === 'fd_error' ? elementText(result, root) : result)}` }];
  }
  return done(call, args, root, result) ?? generic(call);
}

/** The line as plain text (what a screen reader or a test reads). */
export function headlineText(parts: readonly HeadlinePart[]): string {
  return parts.map((p) => ('text' in p ? p.text : 'code' in p ? `\`${p.code}\`` : 'fd' in p ? p.fd : p.label)).join('');
}

type Args = HeadlineArgs;

function done(call: ToolCallRecord, args: Args, root: Tag | undefined, result: string): HeadlinePart[] | undefined {
  const own = toolRecord(call.name)?.headline?.(finished(call, args, root, result));
  if (own !== undefined) return own;
  if (call.name === STRUCTS_ENTITY_TOOL && typeof args['id'] === 'string')
    return [{ text: `Looked up entity ${short(args['id'], MAX_PATTERN)}` }, ...keptIn(call)];
  return undefined;
}

/** What a tool's headline reads of `call`. */
function finished(call: ToolCallRecord, args: Args, tag: Tag | undefined, result: string): FinishedCall {
  const c = call.confirmation;
  const confirmed =
    c === undefined || c.kind === 'tool'
      ? undefined
      : c.kind === 'command'
        ? { command: c.command }
        : { path: c.path, ...(c.line === undefined ? {} : { line: c.line }) };
  return { args, tag, result, ...(confirmed === undefined ? {} : { confirmed }) };
}

function generic(call: ToolCallRecord): HeadlinePart[] {
  const chars = (call.result ?? '').length;
  return [
    { text: `Called ${short(call.name, MAX_PATTERN)}` },
    ...(call.descriptor ? keptIn(call) : [{ text: `, ${plural(String(chars), 'character')} back` }]),
  ];
}

function keptIn(call: ToolCallRecord): HeadlinePart[] {
  return call.descriptor ? [{ text: ', output in ' }, { fd: call.descriptor }] : [];
}

function denied(call: ToolCallRecord): HeadlinePart[] {
  const c = call.confirmation;
  if (c?.kind === 'command') return [{ text: 'Denied: run ' }, { code: short(oneLine(c.command), MAX_CODE) }];
  if (c?.kind === 'tool') return [{ text: `Denied: ${short(c.tool, MAX_PATTERN)}` }];
  if (c !== undefined) return [{ text: `Denied: ${c.mode} ${c.source} to ${c.path}` }];
  return [{ text: `Denied: ${short(call.name, MAX_PATTERN)}` }];
}

function parseArguments(text: string): Args {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Args) : {};
  } catch {
    return {};
  }
}

/** The start of an element's text (after its tag), CDATA sections opened, cut where the element or scan ends. */
function elementText(text: string, tag: Tag): string {
  const body = text.slice(tag.end, SCAN_CHARS);
  const close = body.lastIndexOf(`</${tag.name}>`);
  return unwrapCdata(close === -1 ? body : body.slice(0, close)).replaceAll('&#13;', '\r');
}

function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n|\r/, 1)[0] ?? '';
  return line === '' ? 'no message' : short(line, MAX_LINE);
}
