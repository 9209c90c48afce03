/**
 * A finished tool call in one line a person reads: "Wrote notes/hello.py, 57 bytes", "Read fd:3 page 2 of 9",
 * "Searched fd:2 for "foo": 12 matches", "Ran `npm test`, exit 1, output in fd:4", "Failed: <first line>". Worked out
 * from the call's record alone (name, arguments, status, the result the model got), so a chat saved long ago reads the
 * same. Only the opening tag of a result is read, so the cost does not grow with the result.
 */
import type { ToolCallRecord } from '../session/transcript';
import type { HeadlinePart } from './protocol';
import { RUN_COMMAND_TOOL } from '../tools/runCommand';
import { STRUCTS_ENTITY_TOOL } from './toolNames';

export type { HeadlinePart };

/** How far into a result the opening tag (and a failure's first line) is looked for. */
const SCAN_CHARS = 8_000;
/** The longest first line of a failure, command line or pattern shown. */
const MAX_LINE = 160;
const MAX_CODE = 80;
const MAX_PATTERN = 60;

const count = new Intl.NumberFormat('en-US');

/** The line for a finished call; undefined while it runs or waits for the user. */
export function toolCallHeadline(call: ToolCallRecord): HeadlinePart[] | undefined {
  if (call.status === 'running' || call.status === 'awaitingConfirmation') return undefined;
  const args = parseArguments(call.arguments);
  if (call.status === 'denied') return denied(call);
  const result = call.result ?? '';
  const root = openingTag(result);
  if (call.status === 'error') {
    if (call.unanswered === true) return [{ text: 'Not answered, so it did not run' }];
    if (root?.name === 'command_result') return ran(call, args, root.attributes);
    return [{ text: `Failed: ${firstLine(root?.name === 'fd_error' ? elementText(result, root) : result)}` }];
  }
  return done(call, args, root, result) ?? generic(call);
}

/** The line as plain text (what a screen reader or a test reads). */
export function headlineText(parts: readonly HeadlinePart[]): string {
  return parts.map((p) => ('text' in p ? p.text : 'code' in p ? `\`${p.code}\`` : 'fd' in p ? p.fd : p.label)).join('');
}

type Args = Readonly<Record<string, unknown>>;

interface Tag {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** Just after the tag's `>`. */
  readonly end: number;
}

function done(call: ToolCallRecord, args: Args, root: Tag | undefined, result: string): HeadlinePart[] | undefined {
  const a = root?.attributes ?? {};
  const own = ownSession(args);
  switch (`${call.name} ${root?.name ?? ''}`) {
    case 'fd_to_file fd_file_result':
      return wrote(call, args, a);
    case 'read_fd fd_content':
      return [{ text: 'Read ' }, ...read(a, own)];
    case 'read_fd fd_extraction':
      return [
        { text: `Extracted ${a['lines'] ? `lines ${range(a['lines'])}` : `${number(a['chars'])} characters`} of ` },
        fdPart(a['source_fd'], own),
        { text: ' into ' },
        fdPart(a['new_fd'], true),
      ];
    case 'search_fd search_result':
      return searched(a, own);
    case 'search_fd fd_result': {
      // A long search result is itself stored: its preview starts with the search's own tag.
      const inner = openingTag(unwrapCdata(result.slice(root?.end ?? 0, SCAN_CHARS).replace(/^[^]*?<preview>/, '')));
      if (inner?.name !== 'search_result') return undefined;
      return [...searched(inner.attributes, own), { text: ', all results in ' }, fdPart(a['fd'], true)];
    }
    case 'list_refs ref_list':
      return [{ text: a['count'] === '0' ? 'No refs' : `Listed ${plural(a['count'], 'ref')}` }, ...inSession(args)];
    case 'get_ref ref_content':
      return [
        { text: 'Read ' },
        fdPart(a['fd'], own),
        { text: a['pages'] ? ` page 1 of ${number(a['pages'])}` : ` (${plural(a['lines'], 'line')})` },
        ...inSession(args),
      ];
  }
  if (call.name === RUN_COMMAND_TOOL && root?.name === 'command_result') return ran(call, args, a);
  if (call.name === STRUCTS_ENTITY_TOOL && typeof args['id'] === 'string')
    return [{ text: `Looked up entity ${short(args['id'], MAX_PATTERN)}` }, ...keptIn(call)];
  return undefined;
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

function wrote(call: ToolCallRecord, args: Args, a: Readonly<Record<string, string>>): HeadlinePart[] {
  const target = a['file_path'] ?? '';
  const c = call.confirmation;
  const label = c !== undefined && c.kind !== 'command' && c.kind !== 'tool' ? c.path : target;
  const file: HeadlinePart = { file: target, label };
  const bytes = plural(a['size_bytes'], 'byte');
  const line = c !== undefined && c.kind !== 'command' && c.kind !== 'tool' ? c.line : undefined;
  const at = line ?? (typeof args['line'] === 'number' ? args['line'] : undefined);
  switch (a['mode']) {
    case 'append':
      return [{ text: `Appended ${bytes} to ` }, file];
    case 'insert':
      return [{ text: `Inserted ${bytes} into ` }, file, { text: at === undefined ? '' : ` at line ${number(at)}` }];
    default:
      return [{ text: 'Wrote ' }, file, { text: `, ${bytes}` }];
  }
}

/** After "Read ": which part of which descriptor. */
function read(a: Readonly<Record<string, string>>, own: boolean): HeadlinePart[] {
  const fd = fdPart(a['fd'], own);
  const page = a['page'];
  const of = a['total_lines'] ? ` of ${number(a['total_lines'])}` : '';
  if (page === 'all') return [{ text: 'all of ' }, fd, { text: ` (${plural(a['total_lines'], 'line')})` }];
  if (page !== undefined) {
    const pages = number(a['pages']);
    return page.includes('-')
      ? [fd, { text: ` pages ${range(page)} of ${pages}` }]
      : [fd, { text: ` page ${number(page)} of ${pages}` }];
  }
  switch (a['mode']) {
    case 'tail':
      return [{ text: 'the end of ' }, fd, { text: a['lines'] ? `, lines ${range(a['lines'])}${of}` : '' }];
    case 'char':
      return [{ text: `${plural(a['count'], 'character')} of ` }, fd, { text: ` from ${number(a['start'])}` }];
    default:
      return [fd, { text: a['lines'] ? ` lines ${range(a['lines'])}${of}` : '' }];
  }
}

function searched(a: Readonly<Record<string, string>>, own: boolean): HeadlinePart[] {
  const pattern = short((a['pattern'] ?? '').replace(/[\r\n\t]+/g, ' '), MAX_PATTERN);
  const shown = a['regex'] === 'true' ? `/${pattern}/` : `"${pattern}"`;
  const matches = a['matches'] === '0' ? 'no matches' : plural(a['matches'], 'match', 'matches');
  return [{ text: 'Searched ' }, fdPart(a['fd'], own), { text: ` for ${shown}: ${matches}` }];
}

function ran(call: ToolCallRecord, args: Args, a: Readonly<Record<string, string>>): HeadlinePart[] {
  const c = call.confirmation;
  const command = c?.kind === 'command' ? c.command : typeof args['command'] === 'string' ? args['command'] : '';
  const code: HeadlinePart = { code: short(oneLine(command), MAX_CODE) };
  const how =
    a['exit_code'] !== undefined ? `exit ${a['exit_code']}` : `ended by ${short(a['signal'] ?? 'a signal', 20)}`;
  const head: HeadlinePart[] =
    a['timed_out'] === 'true'
      ? [code, { text: ` timed out after ${number(a['timeout_s'])} s, ${how}` }]
      : a['cancelled'] === 'true'
        ? [{ text: 'Stopped ' }, code, { text: `, ${how}` }]
        : [{ text: 'Ran ' }, code, { text: `, ${how}` }];
  if (a['fd'] !== undefined) return [...head, { text: ', output in ' }, { fd: a['fd'] }];
  return [...head, { text: a['chars'] === '0' ? ', no output' : `, ${plural(a['chars'], 'character')} of output` }];
}

/** A descriptor of this chat's session is a link; one of another session is text. */
function fdPart(id: string | undefined, own: boolean): HeadlinePart {
  const fd = id ?? '?';
  return own ? { fd } : { text: fd };
}

function ownSession(args: Args): boolean {
  return args['session'] === undefined;
}

function inSession(args: Args): HeadlinePart[] {
  const session = args['session'];
  return typeof session === 'string' ? [{ text: ` in session "${short(oneLine(session), MAX_PATTERN)}"` }] : [];
}

function parseArguments(text: string): Args {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Args) : {};
  } catch {
    return {};
  }
}

const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*)="([^"]*)"/y;

/** The result's first element's name and attributes, unescaped; undefined when it does not start with a tag. */
function openingTag(whole: string): Tag | undefined {
  // Another tool's output may be anything, an attribute never closed included: look at the start only.
  const text = whole.length > SCAN_CHARS ? whole.slice(0, SCAN_CHARS) : whole;
  const name = /^<([A-Za-z_][\w.-]*)/.exec(text);
  if (!name) return undefined;
  const attributes: Record<string, string> = {};
  let at = name[0].length;
  while (at < text.length) {
    ATTRIBUTE.lastIndex = at;
    const m = ATTRIBUTE.exec(text);
    if (!m) break;
    attributes[m[1] as string] = unescape(m[2] as string);
    at = ATTRIBUTE.lastIndex;
  }
  const close = /^\s*\/?>/.exec(text.slice(at, at + 4));
  if (!close) return undefined;
  return { name: name[1] as string, attributes, end: at + close[0].length };
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#9;': '\t',
  '&#10;': '\n',
  '&#13;': '\r',
};

function unescape(value: string): string {
  return value.includes('&') ? value.replace(/&(?:amp|lt|gt|quot|#9|#10|#13);/g, (e) => ENTITIES[e] as string) : value;
}

/** The start of an element's text (after its tag), CDATA sections opened, cut where the element or scan ends. */
function elementText(text: string, tag: Tag): string {
  const body = text.slice(tag.end, SCAN_CHARS);
  const close = body.lastIndexOf(`</${tag.name}>`);
  return unwrapCdata(close === -1 ? body : body.slice(0, close)).replaceAll('&#13;', '\r');
}

function unwrapCdata(text: string): string {
  return text.replace(/<!\[CDATA\[([^]*?)(?:\]\]>|$)/g, '$1');
}

function firstLine(text: string): string {
  const line = text.trim().split(/\r?\n|\r/, 1)[0] ?? '';
  return line === '' ? 'no message' : short(line, MAX_LINE);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function short(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An attribute's number with thousands separators (as written when it is not a number). */
function number(value: string | number | undefined): string {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? count.format(n) : String(value ?? '?');
}

function plural(value: string | undefined, one: string, many = `${one}s`): string {
  return `${number(value)} ${value === '1' ? one : many}`;
}

/** `3-6` as `3–6` with separators. */
function range(value: string): string {
  const [from, to] = value.split('-');
  return to === undefined ? number(from) : `${number(from)}–${number(to)}`;
}
