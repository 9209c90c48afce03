import { Content } from '../descriptors/content';
import type { Descriptor, DescriptorTable } from '../descriptors/descriptorTable';
import { selectPreview } from '../descriptors/selection';
import { jsonOutline } from '../presentation/jsonOutline';
import { parentElement, textElement } from '../xml';
import type { ToolDescriptor, ToolSession } from './toolContext';

/** What is being stored: the output of a tool, or a message the user typed or pasted. */
export type WrappedSource =
  { readonly kind: 'tool_output'; readonly toolName: string } | { readonly kind: 'user_input' };

/** What the model sees instead of the text, and the descriptor that holds the text (when one was made). */
export interface Wrapped {
  readonly text: string;
  readonly descriptor?: Descriptor;
}

/**
 * Stores `text` longer than `maxChars` as a new `fd:` descriptor and returns what the model sees in its place:
 * `<fd_result>` for a tool output, `<fd_user_input>` for a user message, each with a message saying how to read
 * the rest and a preview. Text of at most `maxChars` comes back as it is, with no descriptor.
 *
 * Promises, whatever the page size and limit: the preview is the start of page 1 and at most `maxChars` long
 * (see `selectPreview`), the largest that keeps the whole reply shorter than `text`; the message names only
 * pages that exist. When even a reply without a preview would not be shorter than `text`, the model gets `text`
 * itself (the descriptor is still made): nothing that stands for a text is ever longer than the text.
 */
export function wrapInDescriptor(
  table: DescriptorTable,
  source: WrappedSource,
  text: string,
  pageSize: number,
  maxChars: number,
): Wrapped {
  if (text.length <= maxChars) return { text };
  const content = new Content(text);
  const descriptor = table.createFd(
    source.kind,
    content,
    source.kind === 'tool_output' ? { toolName: source.toolName } : {},
  );
  return { text: replyInPlaceOf(source, descriptor.id, content, pageSize, maxChars), descriptor };
}

/**
 * `wrapInDescriptor` for any `ToolSession` (the tools' own long results, such as a long `search_fd` listing): the
 * same reply and promises, the descriptor made by `session.createFd`.
 */
export async function wrapInToolSession(
  session: ToolSession,
  source: WrappedSource,
  text: string,
  pageSize: number,
  maxChars: number,
): Promise<{ readonly text: string; readonly descriptor?: ToolDescriptor }> {
  if (text.length <= maxChars) return { text };
  const descriptor = await session.createFd(
    source.kind,
    text,
    source.kind === 'tool_output' ? { toolName: source.toolName } : {},
  );
  return { text: replyInPlaceOf(source, descriptor.id, new Content(text), pageSize, maxChars), descriptor };
}

/** A text stored as a descriptor, and the reply that stands for it within any length (`storeForReply`). */
export interface StoredReply {
  readonly descriptor: ToolDescriptor;
  /**
   * The reply naming the descriptor with the longest preview that keeps it at most `maxChars` long; the reply
   * without a preview (about 400 characters) when even that is longer.
   */
  reply(maxChars: number): string;
}

/**
 * Stores `text` as a new `fd:` descriptor of `session` once, and gives replies for it sized to a limit on the
 * whole reply (a surface whose results must stay under a size: VS Code's language model tools).
 */
export async function storeForReply(
  session: ToolSession,
  source: WrappedSource,
  text: string,
  pageSize: number,
): Promise<StoredReply> {
  const descriptor = await session.createFd(
    source.kind,
    text,
    source.kind === 'tool_output' ? { toolName: source.toolName } : {},
  );
  const content = new Content(text);
  const outline = jsonOutline(text);
  return {
    descriptor,
    reply: (maxChars) =>
      longestReply(
        (previewChars) => describeStored(source, descriptor.id, content, pageSize, previewChars, outline),
        maxChars,
        (candidate) => candidate.length <= maxChars,
      ) ?? describeStored(source, descriptor.id, content, pageSize, 0, outline),
  };
}

/**
 * The reply with the longest preview (at most `maxPreview` characters) that `fits`, undefined when none does.
 * The reply grows with the preview (its escaping too), so halving finds about the largest preview that fits;
 * every candidate is measured, so what is returned fits even where the growth is uneven.
 */
function longestReply(
  reply: (previewChars: number) => string,
  maxPreview: number,
  fits: (candidate: string) => boolean,
): string | undefined {
  const full = reply(maxPreview);
  if (fits(full)) return full;
  let best = reply(0);
  if (!fits(best)) return undefined;
  let fitting = 0;
  let tooLong = maxPreview;
  while (tooLong - fitting > 1) {
    const middle = fitting + Math.floor((tooLong - fitting) / 2);
    const candidate = reply(middle);
    if (fits(candidate)) {
      fitting = middle;
      best = candidate;
    } else {
      tooLong = middle;
    }
  }
  return best;
}

/** What the model sees in place of `content`, stored as `id`: the longest preview that keeps it shorter than the text. */
function replyInPlaceOf(
  source: WrappedSource,
  id: string,
  content: Content,
  pageSize: number,
  maxChars: number,
): string {
  const text = content.text;
  const outline = jsonOutline(text);
  const reply = (previewChars: number): string => describeStored(source, id, content, pageSize, previewChars, outline);
  return longestReply(reply, maxChars, (candidate) => candidate.length < text.length) ?? text;
}

/**
 * The reply for a stored text with a preview of at most `previewChars` (possibly none): the JSON `outline` when the
 * text has one (its structure says more than the first characters of a document), else the text's start.
 */
function describeStored(
  source: WrappedSource,
  id: string,
  content: Content,
  pageSize: number,
  previewChars: number,
  outline: string | undefined,
): string {
  if (outline !== undefined)
    return describeStoredJson(source, id, content, pageSize, wholeLines(outline, previewChars));
  const preview = selectPreview(content, pageSize, previewChars);
  const pages = content.pageTable(pageSize).length - 1;
  const shown = preview.end;
  const wholeFirstPage = shown === content.pageTable(pageSize)[1];
  const stored = `${content.length} characters (${plural(content.totalLines, 'line')}), so it was stored as ${id} in ${plural(pages, 'page')}`;
  let reading: string;
  if (shown === 0) reading = `Read it with ${pageReads(id, 1, pages)}`;
  else if (wholeFirstPage && pages > 1)
    reading = `The first page is below; read the rest with ${pageReads(id, 2, pages)}`;
  else reading = `Its first ${plural(shown, 'character')} are below; read all of it with ${pageReads(id, 1, pages)}`;
  const children = shown === 0 ? [] : [textElement('preview', {}, content.text.slice(0, shown))];
  if (source.kind === 'tool_output') {
    const message = `The output of ${source.toolName} is ${stored}. ${reading}, search it with search_fd, or write it to a file with fd_to_file.`;
    return parentElement(
      'fd_result',
      {
        fd: id,
        pages,
        lines: shown === 0 ? undefined : preview.attributes['lines'],
        total_lines: content.totalLines,
        truncated: shown === 0 ? undefined : preview.attributes['truncated'],
      },
      [textElement('message', {}, message), ...children],
    );
  }
  const message = `The user's message is ${stored}. ${reading}.`;
  return parentElement('fd_user_input', { fd: id, chars: content.length, lines: content.totalLines, pages }, [
    textElement('message', {}, message),
    ...children,
  ]);
}

/** The reply for a stored JSON text with this much of its outline (possibly none). */
function describeStoredJson(
  source: WrappedSource,
  id: string,
  content: Content,
  pageSize: number,
  outline: string,
): string {
  const pages = content.pageTable(pageSize).length - 1;
  const stored = `${content.length} characters (${plural(content.totalLines, 'line')}) of JSON, so it was stored as ${id} in ${plural(pages, 'page')}`;
  const shown = outline === '' ? '' : ' Its structure is below, each line led by a jq path.';
  const reading = `Query it with query_fd(fd="${id}", query="..."), or read it with ${pageReads(id, 1, pages)}.`;
  const children = outline === '' ? [] : [textElement('json_outline', {}, outline)];
  if (source.kind === 'tool_output') {
    return parentElement('fd_result', { fd: id, pages, total_lines: content.totalLines, json: 'true' }, [
      textElement('message', {}, `The output of ${source.toolName} is ${stored}.${shown} ${reading}`),
      ...children,
    ]);
  }
  return parentElement(
    'fd_user_input',
    { fd: id, chars: content.length, lines: content.totalLines, pages, json: 'true' },
    [textElement('message', {}, `The user's message is ${stored}.${shown} ${reading}`), ...children],
  );
}

/** The lines of `text` that fit in `maxChars` together. */
function wholeLines(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  return cut <= 0 ? '' : text.slice(0, cut);
}

/** `read_fd(fd="fd:1", start=2)`, or for several pages `read_fd(fd="fd:1", start=2) to start=5`: only pages that exist. */
export function pageReads(id: string, first: number, last: number): string {
  const call = first === 1 && last === 1 ? `read_fd(fd="${id}")` : `read_fd(fd="${id}", start=${first})`;
  return first === last ? call : `${call} to start=${last}`;
}

/** `1 line`, `2 lines`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
