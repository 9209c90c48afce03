/**
 * The language model tools fdref registers: one per record of the core's table offered on `copilot`, named
 * `fdref_<name>`. What the manifest says of them is generated from the same records (`lmToolDefinitions.ts`).
 */
import { resolveOptions } from '../core/session/options';
import type { ToolRecord } from '../core/tools/toolRecord';
import { toolsOn } from '../core/tools/toolTable';

/** `fdref_read_fd` for `read_fd`. */
export function lmToolName(core: string): string {
  return `fdref_${core}`;
}

/** Every contributed tool's name with the record it runs, in the table's order. */
export const LM_TOOLS: readonly { readonly name: string; readonly record: ToolRecord }[] = toolsOn('copilot').map(
  (record) => ({ name: lmToolName(record.name), record }),
);

/** Text longer than this, given to `fdref_store_text`, is also kept whole as a descriptor (the chat's default). */
export const STORE_TEXT_INLINE_CHARS = resolveOptions().maxDirectOutputChars;
