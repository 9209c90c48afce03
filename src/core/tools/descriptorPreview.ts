import { Content } from '../descriptors/content';
import type { Descriptor, DescriptorTable } from '../descriptors/descriptorTable';
import { jsonOutline } from '../presentation/jsonOutline';
import {
  OutputPreviewBuilder,
  previewLimits,
  renderOutputBody,
  WHOLE_OUTPUT_HEADER,
  type OutputSummary,
} from '../presentation/outputPreview';
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
 * `<fd_result>` for a tool output, `<fd_user_input>` for a user message, each with a message first (the handle,
 * the sizes and how to read and search the whole) and a preview: the command wrapper's (`renderOutputBody`), its
 * head, the lines that look like errors or warnings with their line numbers, and its tail; a JSON text's outline
 * instead. Text of at most `maxChars` comes back as it is, with no descriptor.
 *
 * Promises, whatever the page size and limit: the preview is at most `maxChars` long, the largest that keeps
 * the whole reply shorter than `text`; the message names only pages that exist. When even a reply without a preview would not be shorter than `text`, the model gets `text`
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
  const look = lookAt(text);
  return {
    descriptor,
    reply: (maxChars) =>
      longestReply(
        (previewChars) => describeStored(source, descriptor.id, content, pageSize, previewChars, look(maxChars)),
        maxChars,
        (candidate) => candidate.length <= maxChars,
      ) ?? describeStored(source, descriptor.id, content, pageSize, 0, look(0)),
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
  const look = lookAt(text)(maxChars);
  const reply = (previewChars: number): string => describeStored(source, id, content, pageSize, previewChars, look);
  return longestReply(reply, maxChars, (candidate) => candidate.length < text.length) ?? text;
}

/** What a preview of `text` is made from: its JSON outline, or what the preview builder saw of it. */
type Look = { readonly outline: string } | { readonly summary: OutputSummary };

/**
 * The look at `text` for previews of up to a given size: the JSON outline when it has one, else the builder's
 * summary (one pass over the text per size; the replies of one size, tried by `longestReply`, share it).
 */
function lookAt(text: string): (maxPreview: number) => Look {
  const outline = jsonOutline(text);
  if (outline !== undefined) return () => ({ outline });
  const looks = new Map<number, Look>();
  return (maxPreview) => {
    let look = looks.get(maxPreview);
    if (look === undefined) {
      const builder = new OutputPreviewBuilder(previewLimits(maxPreview));
      builder.push(text);
      look = { summary: builder.finish() };
      looks.set(maxPreview, look);
    }
    return look;
  };
}

/**
 * The reply for a stored text with a preview of at most `previewChars` (possibly none): the JSON outline when the
 * text has one (its structure says more than the first characters of a document), else the command wrapper's
 * preview of it. The message comes first and says all a model needs to get the rest: models skip what trails.
 */
function describeStored(
  source: WrappedSource,
  id: string,
  content: Content,
  pageSize: number,
  previewChars: number,
  look: Look,
): string {
  if ('outline' in look)
    return describeStoredJson(source, id, content, pageSize, wholeLines(look.outline, previewChars));
  const preview = previewChars > 0 ? renderOutputBody(look.summary, previewChars) : '';
  const pages = content.pageTable(pageSize).length - 1;
  const whole = `${content.length} characters (${plural(content.totalLines, 'line')}) in ${plural(pages, 'page')}`;
  const read = `Read it with ${pageReads(id, 1, pages)}`;
  const search = `search it with search_fd(fd="${id}", pattern=...)`;
  // A preview too small for its section headers is only the text's start.
  const shown =
    preview === ''
      ? ''
      : preview.startsWith('--- ')
        ? preview.startsWith(WHOLE_OUTPUT_HEADER)
          ? ' All of it is below.'
          : ' Below are its first lines, any lines that look like errors or warnings (with their line numbers), and its last lines.'
        : ' Its start is below.';
  const children = preview === '' ? [] : [textElement('preview', {}, preview)];
  if (source.kind === 'tool_output') {
    const message = `${id} holds the whole output of ${source.toolName}: ${whole}. ${read}, ${search}, or write it to a file with fd_to_file.${shown}`;
    // `truncated` as llmproc's fd_result has it: whether the preview leaves part of the text out.
    const truncated = preview.startsWith(WHOLE_OUTPUT_HEADER) ? 'false' : 'true';
    return parentElement(
      'fd_result',
      { fd: id, pages, truncated, chars: content.length, total_lines: content.totalLines },
      [textElement('message', {}, message), ...children],
    );
  }
  const message = `${id} holds the whole of the user's message: ${whole}. ${read}, or ${search}.${shown}`;
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
  const whole = `${content.length} characters (${plural(content.totalLines, 'line')}) of JSON in ${plural(pages, 'page')}`;
  const shown = outline === '' ? '' : ' Its structure is below, each line led by a jq path.';
  const reading = `Query it with query_fd(fd="${id}", query="..."), or read it with ${pageReads(id, 1, pages)}.`;
  const children = outline === '' ? [] : [textElement('json_outline', {}, outline)];
  if (source.kind === 'tool_output') {
    return parentElement(
      'fd_result',
      { fd: id, pages, truncated: 'true', total_lines: content.totalLines, json: 'true' },
      [
        textElement('message', {}, `${id} holds the whole output of ${source.toolName}: ${whole}. ${reading}${shown}`),
        ...children,
      ],
    );
  }
  return parentElement(
    'fd_user_input',
    { fd: id, chars: content.length, lines: content.totalLines, pages, json: 'true' },
    [
      textElement('message', {}, `${id} holds the whole of the user's message: ${whole}. ${reading}${shown}`),
      ...children,
    ],
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
