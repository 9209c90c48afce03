/**
 * What a finished tool call's one-line summary is made of, and the small helpers each tool's `headline` uses
 * (`ToolRecord.headline`): "Read fd:3 page 2 of 9", "Searched fd:2 for "foo": 12 matches". Worked out from the
 * call's arguments and the opening tag of its result alone, so a chat saved long ago reads the same, and the cost
 * does not grow with the result.
 */

/** A piece of the line: text, code, a descriptor (a link when it is the chat's own) or a file to open. */
export type HeadlinePart =
  | { text: string }
  | { code: string }
  | { fd: string }
  /** `file` is the absolute path written, `label` the path as the user was shown it. */
  | { file: string; label: string };

/** A call's arguments as far as they are a JSON object. */
export type HeadlineArgs = Readonly<Record<string, unknown>>;

/** The opening tag of a result: its name, attributes (unescaped) and where it ends. */
export interface Tag {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** Just after the tag's `>`. */
  readonly end: number;
}

/** What a tool's headline reads of one finished call. */
export interface FinishedCall {
  readonly args: HeadlineArgs;
  /** The result's opening tag (undefined when it does not start with one). */
  readonly tag: Tag | undefined;
  /** The result as the model got it. */
  readonly result: string;
  /** What the user was shown and allowed, for a call that asked: the command, or the write's path and line. */
  readonly confirmed?: { readonly command?: string; readonly path?: string; readonly line?: number };
}

/** How far into a result the opening tag (and a failure's first line) is looked for. */
export const SCAN_CHARS = 8_000;
/** The longest command line or pattern shown. */
export const MAX_CODE = 80;
export const MAX_PATTERN = 60;

/** Made on first use: Intl maps megabytes of ICU data into a process that loads this module but never formats. */
let count: Intl.NumberFormat | undefined;

/** A descriptor of this chat's session is a link; one of another session is text. */
export function fdPart(id: string | undefined, own: boolean): HeadlinePart {
  const fd = id ?? '?';
  return own ? { fd } : { text: fd };
}

/** Whether a call read its own session (no `session` argument). */
export function ownSession(args: HeadlineArgs): boolean {
  return args['session'] === undefined;
}

/** ` in session "name"` for a call that named another session. */
export function inSession(args: HeadlineArgs): HeadlinePart[] {
  const session = args['session'];
  return typeof session === 'string' ? [{ text: ` in session "${short(oneLine(session), MAX_PATTERN)}"` }] : [];
}

/** ` in session x` while a call that names another session runs (`session` already escaped). */
export function inSessionNote(session: string | undefined): string {
  return session === undefined ? '' : ` in session ${session}`;
}

const ATTRIBUTE = /\s+([A-Za-z_][\w.-]*)="([^"]*)"/y;

/** The result's first element's name and attributes, unescaped; undefined when it does not start with a tag. */
export function openingTag(whole: string): Tag | undefined {
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

export function unwrapCdata(text: string): string {
  return text.replace(/<!\[CDATA\[([^]*?)(?:\]\]>|$)/g, '$1');
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function short(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** An attribute's number with thousands separators (as written when it is not a number). */
export function number(value: string | number | undefined): string {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n)
    ? (count ??= new Intl.NumberFormat('en-US')).format(n)
    : String(value ?? '?');
}

export function plural(value: string | undefined, one: string, many = `${one}s`): string {
  return `${number(value)} ${value === '1' ? one : many}`;
}

/** `3-6` as `3–6` with separators. */
export function range(value: string): string {
  const [from, to] = value.split('-');
  return to === undefined ? number(from) : `${number(from)}–${number(to)}`;
}
