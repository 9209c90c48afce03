/**
 * Splits a round's raw text into what the view shows: Markdown between top-level refs and a frame for
 * each top-level ref, whose body is the text between its tags with the tags of nested refs taken out.
 * Pure (no DOM), so the unit tests run it in Node.
 */
import type { RefView } from '../core/chat/protocol';
import { refDescriptorId } from '../core/ids';

export type Segment =
  | { kind: 'markdown'; start: number; end: number }
  | {
      kind: 'ref';
      ref: RefView;
      start: number;
      end: number;
      /** Where the body starts in the text (just after the opening tag's `>`). */
      bodyStart: number;
      /** The text between the tags, without the tags of nested refs. */
      body: string;
      /** Offsets of the nested tags cut out of the body, in order (to compare with what streaming cut). */
      cuts: number[];
      /** The refs inside this one, in order. */
      nested: RefView[];
    };

/** End of the opening tag that starts at `start` (just after its `>`). */
function openingTagEnd(text: string, start: number): number {
  const gt = text.indexOf('>', start);
  return gt === -1 ? text.length : gt + 1;
}

/** Start of the closing tag that ends at `end` (its `<`). */
function closingTagStart(text: string, end: number): number {
  const lt = text.lastIndexOf('<', end - 1);
  return lt === -1 ? end : lt;
}

/**
 * The segments of `text` given its refs (as the extension reports them): top-level refs (`nested: false`)
 * become frames, the text around them Markdown; Markdown that is only whitespace is left out. Refs that
 * overlap an earlier frame or fall outside the text are ignored.
 */
export function deriveSegments(text: string, refs: readonly RefView[]): Segment[] {
  const segments: Segment[] = [];
  const top = refs.filter((r) => !r.nested).sort((a, b) => a.start - b.start);
  const inner = refs.filter((r) => r.nested).sort((a, b) => a.start - b.start);
  let pos = 0;
  for (const ref of top) {
    if (ref.start < pos || ref.end > text.length || ref.end <= ref.start) continue;
    pushMarkdown(segments, text, pos, ref.start);
    const bodyStart = openingTagEnd(text, ref.start);
    const bodyEnd = Math.max(bodyStart, closingTagStart(text, ref.end));
    const nested = inner.filter((n) => n.start >= bodyStart && n.end <= bodyEnd);
    const ranges: [number, number][] = [];
    for (const n of nested) {
      ranges.push([n.start, openingTagEnd(text, n.start)]);
      ranges.push([closingTagStart(text, n.end), n.end]);
    }
    ranges.sort((a, b) => a[0] - b[0]);
    let body = '';
    let at = bodyStart;
    const cuts: number[] = [];
    for (const [from, to] of ranges) {
      if (from < at) continue;
      body += text.slice(at, from);
      cuts.push(from);
      at = to;
    }
    body += text.slice(at, bodyEnd);
    segments.push({ kind: 'ref', ref, start: ref.start, end: ref.end, bodyStart, body, cuts, nested });
    pos = ref.end;
  }
  pushMarkdown(segments, text, pos, text.length);
  return segments;
}

function pushMarkdown(segments: Segment[], text: string, start: number, end: number): void {
  if (end <= start || /^\s*$/.test(text.slice(start, end))) return;
  segments.push({ kind: 'markdown', start, end });
}

/** The versioned id the extension's ref actions take: `ref:x@2`. */
export function versionedRefId(ref: Pick<RefView, 'id' | 'version'>): string {
  return refDescriptorId(ref.id, ref.version);
}
