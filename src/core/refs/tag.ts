/**
 * Recognising `<ref ...>`, `</ref>` and `<ref .../>` tags at a given offset, and reading their id.
 * Shared by the main scanner and the code-span lookahead so both agree on what a tag is.
 */
import { isRefId } from '../ids';

/** Longest a tag may be, `<` to `>` inclusive; past this we give up and its `<` is literal text. */
export const MAX_TAG_LENGTH = 1000;

export type TagScan =
  | { kind: 'need' }
  | { kind: 'none' }
  | { kind: 'open' | 'self'; end: number; attrs: string }
  | { kind: 'close'; end: number }
  /** A tag that would be a ref tag in lower case, such as `<REF id="x">` or `</Ref>` (only when asked for). */
  | { kind: 'cased'; end: number };

const NEED: TagScan = { kind: 'need' };
const NONE: TagScan = { kind: 'none' };

/** Whitespace allowed inside a tag (HTML's set, minus form feed oddities we do not care about). */
export function isTagSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

/**
 * Remembers the last `indexOf('>')` answer on the current string, so that a run of `<ref` starts
 * without any `>` costs one search in total instead of one per start. Call `reset()` whenever the
 * string being searched changes (comparing huge strings to detect that would itself cost O(n)).
 */
export class GtFinder {
  private from = -1;
  private at = -1;

  reset(): void {
    this.from = -1;
  }

  next(s: string, i: number): number {
    if (this.from !== -1 && i >= this.from && (this.at === -1 || i <= this.at)) return this.at;
    this.from = i;
    this.at = s.indexOf('>', i);
    return this.at;
  }
}

const REF = [114, 101, 102]; // r e f

/**
 * Whether `s[at..at+3)` spells `ref` (-1 when `s` ends first): 1 in lower case, 2 in any other case
 * when `cased`, 0 otherwise. `c | 0x20` is the lower-case letter only for that letter's two cases.
 */
function spellsRef(s: string, at: number, cased: boolean): number {
  let exact = true;
  for (let k = 0; k < 3; k++) {
    if (at + k >= s.length) return -1;
    const c = s.charCodeAt(at + k);
    const want = REF[k] as number;
    if (c === want) continue;
    if (!cased || (c | 0x20) !== want) return 0;
    exact = false;
  }
  return exact ? 1 : 2;
}

/**
 * Decides whether a ref tag starts at `s[i]` (which must be `<`). Answers `need` only when more text
 * could change the answer and `final` is false; with `final` it always decides. With `cased`, a tag
 * that is a ref tag but for the case of `ref` is answered `cased` instead of `none`.
 */
export function scanTag(s: string, i: number, final: boolean, gt: GtFinder, cased = false): TagScan {
  const n = s.length;
  const short = (): TagScan => (final ? NONE : NEED);
  if (i + 1 >= n) return short();
  if (s.charCodeAt(i + 1) === 47 /* / */) {
    const name = spellsRef(s, i + 2, cased);
    if (name === -1) return short();
    if (name === 0) return NONE;
    let j = i + 5;
    while (j < n && j - i < MAX_TAG_LENGTH && isTagSpace(s.charCodeAt(j))) j++;
    if (j - i >= MAX_TAG_LENGTH) return NONE;
    if (j >= n) return short();
    if (s.charCodeAt(j) !== 62 /* > */) return NONE;
    return name === 1 ? { kind: 'close', end: j + 1 } : { kind: 'cased', end: j + 1 };
  }
  const name = spellsRef(s, i + 1, cased);
  if (name === -1) return short();
  if (name === 0) return NONE;
  if (i + 4 >= n) return short();
  const d = s.charCodeAt(i + 4);
  // `/` is accepted so that `<ref/>` is reported as a self-closing tag rather than silently ignored.
  if (!isTagSpace(d) && d !== 62 && d !== 47) return NONE;
  const g = gt.next(s, i + 4);
  if (g === -1) return !final && n - i < MAX_TAG_LENGTH ? NEED : NONE;
  if (g + 1 - i > MAX_TAG_LENGTH) return NONE;
  if (name === 2) return { kind: 'cased', end: g + 1 };
  const attrs = s.slice(i + 4, g);
  return { kind: /\/\s*$/.test(attrs) ? 'self' : 'open', end: g + 1, attrs };
}

/** Whether `head` (the first few characters after a `<`) could still begin a ref tag, in any case. */
export function couldBeginTag(mixedHead: string): boolean {
  const head = mixedHead.toLowerCase();
  if (head.length >= 2 && head.charCodeAt(1) === 47) {
    const want = '</ref';
    if (!want.startsWith(head.slice(0, 5))) return false;
    return head.length <= 5 || isTagSpace(head.charCodeAt(5)) || head.charCodeAt(5) === 62;
  }
  if (!'<ref'.startsWith(head.slice(0, 4))) return false;
  if (head.length <= 4) return true;
  const d = head.charCodeAt(4);
  return isTagSpace(d) || d === 62 || d === 47;
}

export type IdScan =
  | { kind: 'ok'; id: string }
  | { kind: 'missing' }
  | { kind: 'unquoted'; value: string }
  | { kind: 'unterminated'; value: string }
  | { kind: 'invalid'; value: string }
  /** No `id`, but an attribute that is `id` in another case, such as `ID="x"`. */
  | { kind: 'cased'; name: string; value: string };

/** Reads the first `id` attribute of an opening tag's attribute text; other attributes are ignored. */
export function readId(attrs: string): IdScan {
  const n = attrs.length;
  let i = 0;
  let cased: IdScan | undefined;
  while (i < n) {
    while (i < n && isTagSpace(attrs.charCodeAt(i))) i++;
    if (i >= n) break;
    if (attrs[i] === '/') {
      i++;
      continue;
    }
    const nameStart = i;
    while (i < n && !isTagSpace(attrs.charCodeAt(i)) && attrs[i] !== '=' && attrs[i] !== '/') i++;
    const name = attrs.slice(nameStart, i);
    let j = i;
    while (j < n && isTagSpace(attrs.charCodeAt(j))) j++;
    if (attrs[j] !== '=') {
      if (name === 'id') return { kind: 'unquoted', value: '' };
      if (i === nameStart) i++; // a stray quote or similar: step over it
      continue;
    }
    j++;
    while (j < n && isTagSpace(attrs.charCodeAt(j))) j++;
    const q = attrs[j];
    let value: string;
    let quoted = false;
    let terminated = true;
    if (q === '"' || q === "'") {
      const close = attrs.indexOf(q, j + 1);
      quoted = true;
      if (close === -1) {
        terminated = false;
        value = attrs.slice(j + 1);
        i = n;
      } else {
        value = attrs.slice(j + 1, close);
        i = close + 1;
      }
    } else {
      const start = j;
      while (j < n && !isTagSpace(attrs.charCodeAt(j))) j++;
      value = attrs.slice(start, j);
      i = j;
    }
    if (name !== 'id') {
      if (cased === undefined && name.toLowerCase() === 'id') cased = { kind: 'cased', name, value };
      continue;
    }
    if (!quoted) return { kind: 'unquoted', value };
    if (!terminated) return { kind: 'unterminated', value };
    return isRefId(value) ? { kind: 'ok', id: value } : { kind: 'invalid', value };
  }
  return cased ?? { kind: 'missing' };
}

/** Whether `chunk` has a `<` that could begin a ref tag (in any case): followed by `r`, `R` or `/`, or ending the chunk. */
export function mayHoldTag(chunk: string): boolean {
  for (let i = chunk.indexOf('<'); i !== -1; i = chunk.indexOf('<', i + 1)) {
    const next = chunk.charCodeAt(i + 1);
    if (next !== next || (next | 0x20) === 114 /* r or R */ || next === 47 /* / */) return true; // NaN: `<` ends the chunk
  }
  return false;
}
