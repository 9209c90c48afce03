/**
 * `store_text`: every `<ref>` block of a text becomes a ref, and a long text is also kept whole as an `fd:`. One
 * definition for every surface that offers it (the MCP server, VS Code's language model tools): the schema, the
 * description and the `<store_result>` the model sees; each surface gives the session to write.
 */
import * as z from 'zod';
import { extractRefs } from '../refs/extract';
import { emptyElement, parentElement, textElement } from '../xml';
import type { RegisteredRef, StoreTextTarget, ToolDescriptor } from './toolContext';
import { ToolError } from '../toolError';
import { defineTool } from './toolRecord';

export const storeTextInput = z.strictObject({
  text: z
    .string()
    .describe('Text holding <ref id="name">...</ref> blocks; each becomes ref:name (a new version when changed).'),
});
export type StoreTextInput = z.output<typeof storeTextInput>;

/**
 * What the model is told of `store_text`, where a text longer than `inlineChars` (the session options'
 * `maxDirectOutputChars`) is kept whole.
 */
export const storeTextDescription = (inlineChars: number): string =>
  'Keep text in fdref: every <ref id="name">...</ref> block in it becomes ref:name (a changed ref gets a new ' +
  `version, ref:name@1 stays readable), and text longer than ${inlineChars} characters is also kept whole ` +
  'as a descriptor fd:N. Returns what was registered. Read them later with get_ref, read_fd or fd_to_file.';

export type { RegisteredRef, StoreTextTarget } from './toolContext';

/** What `store_text` did: the XML the model sees, the refs registered and the descriptor made (if any). */
export interface StoreTextResult {
  readonly text: string;
  readonly registered: readonly RegisteredRef[];
  readonly descriptor?: ToolDescriptor;
}

/** Registers the refs of `input.text` in `target`, and keeps the text whole there when longer than `inlineChars`. */
export async function storeText(
  input: StoreTextInput,
  target: StoreTextTarget,
  inlineChars: number,
): Promise<StoreTextResult> {
  const { refs, diagnostics } = extractRefs(input.text);
  const registered: RegisteredRef[] = [];
  for (const ref of refs) registered.push(await target.registerRef(ref));
  const stored = input.text.length > inlineChars;
  const descriptor = stored ? await target.createFd('user_input', input.text) : undefined;
  const parts = [
    refs.length === 0 ? 'No <ref> block was found.' : `${refs.length} ref${refs.length === 1 ? '' : 's'} found.`,
    descriptor === undefined
      ? `The text (${input.text.length} characters) was not kept as a descriptor: it is not longer than ${inlineChars}.`
      : `The whole text (${input.text.length} characters) is kept as ${descriptor.id}.`,
  ];
  const children = [
    textElement('message', {}, parts.join(' ')),
    ...registered.map((r) =>
      emptyElement('ref', {
        id: r.id,
        fd: r.descriptor.id,
        version: r.version,
        new_version: r.created ? 'true' : 'false',
        lines: r.descriptor.content.totalLines,
        chars: r.descriptor.content.length,
        language: r.descriptor.language,
      }),
    ),
    ...diagnostics.slice(0, 20).map((d) => textElement('diagnostic', { offset: d.offset }, d.message)),
  ];
  const text = parentElement(
    'store_result',
    { session: target.id, refs: registered.length, fd: descriptor?.id, chars: input.text.length },
    children,
  );
  return descriptor === undefined ? { text, registered } : { text, registered, descriptor };
}

export const storeTextTool = defineTool({
  name: 'store_text',
  title: 'Store text and refs',
  description: storeTextDescription,
  schema: storeTextInput,
  effect: 'store',
  surfaces: ['mcp', 'copilot'],
  sessionArgument: false,
  copilot: {
    referenceName: 'storeText',
    displayName: 'Store Text in FD Refs',
    userDescription: 'Keep text in FD Refs: <ref id="name"> blocks become refs, long text a descriptor.',
    icon: '$(archive)',
    when:
      'Use it to keep code or text you wrote (wrapped in <ref id="name">...</ref> blocks) or long text you were ' +
      'given, so that it can be written to files with fd_to_file or read later without repeating it.',
    looksUpSessions: false,
    invocation: (args) => {
      const text = args.raw('text');
      return `Storing ${(typeof text === 'string' ? text.length : 0).toLocaleString('en-US')} characters in FD Refs`;
    },
  },
  run: async (context, input) => {
    if (context.keep === undefined) throw new ToolError('invalid_argument', 'store_text is not offered here.');
    const result = await storeText(input, await context.keep.target(), context.keep.inlineChars);
    const made = [...(result.descriptor === undefined ? [] : [result.descriptor.id])];
    return { text: result.text, made: [...made, ...result.registered.map((r) => r.descriptor.id)] };
  },
});
