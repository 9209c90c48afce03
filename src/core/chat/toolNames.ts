/** The names of the tools fdref's chat has of its own; a tool of another extension may not take one of them. */
import { DESCRIPTOR_TOOL_NAMES } from '../tools';
import { RUN_COMMAND_TOOL } from '../tools/runCommand';

export const STRUCTS_ENTITY_TOOL = 'structs_entity';

export const CHAT_OWN_TOOL_NAMES: ReadonlySet<string> = new Set([
  ...DESCRIPTOR_TOOL_NAMES,
  RUN_COMMAND_TOOL,
  STRUCTS_ENTITY_TOOL,
]);
