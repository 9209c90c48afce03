/** The names of the tools fdref's chat has of its own; a tool of another extension may not take one of them. */
import { toolsOn } from '../tools/toolTable';

export const STRUCTS_ENTITY_TOOL = 'structs_entity';

export const CHAT_OWN_TOOL_NAMES: ReadonlySet<string> = new Set([
  ...toolsOn('chat').map((t) => t.name),
  STRUCTS_ENTITY_TOOL,
]);
