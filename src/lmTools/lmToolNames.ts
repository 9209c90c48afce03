/**
 * The language model tools' names and the core tool each runs: what the extension needs at run time. What the
 * manifest says of them (descriptions, schemas) is in `lmToolDefinitions.ts`, which activation does not load.
 */
import { resolveOptions } from '../core/session/options';

/** The core tool each language model tool runs. */
export type CoreToolName = 'read_fd' | 'search_fd' | 'fd_to_file' | 'list_refs' | 'get_ref' | 'store_text';

/** The core tools in the manifest's order. */
export const CORE_TOOLS: readonly CoreToolName[] = [
  'read_fd',
  'search_fd',
  'fd_to_file',
  'list_refs',
  'get_ref',
  'store_text',
];

/** `fdref_read_fd` for `read_fd`. */
export function lmToolName(core: CoreToolName): string {
  return `fdref_${core}`;
}

/** Every contributed tool's name with the core tool it runs. */
export const LM_TOOLS: readonly { readonly name: string; readonly core: CoreToolName }[] = CORE_TOOLS.map((core) => ({
  name: lmToolName(core),
  core,
}));

/** Text longer than this, given to `fdref_store_text`, is also kept whole as a descriptor (the chat's default). */
export const STORE_TEXT_INLINE_CHARS = resolveOptions().maxDirectOutputChars;
