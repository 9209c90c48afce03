import { toolsOn } from '../tools/toolTable';

/**
 * How to mark content as a ref, with one example: the part of the instructions every surface that asks a model for refs
 * shares (the chat, the `@fdref` participant).
 */
export const REF_MARKING = `Mark content the user may want to keep (code, configuration, data) with a ref, choosing a short descriptive id (letters, digits, "_", ".", "-"):
<ref id="parse_config">
\`\`\`python
def parse_config(path): ...
\`\`\`
</ref>`;

/** The chat's tools' own lines (`ToolRecord.prompt`), in the table's order. */
const TOOL_LINES = toolsOn('chat')
  .flatMap((t) => (t.prompt === undefined ? [] : [`- ${t.prompt}`]))
  .join('\n');

/** Teaches a model the descriptor tools and the `<ref>` convention, briefly, with one example each. */
export const SYSTEM_PROMPT_ADDITIONS = `<fdref_instructions>
Large content is kept out of the conversation as numbered descriptors. When a tool output or a user message is too long, you see a <fd_result> or <fd_user_input> with an id like "fd:1", its pages and a preview: start, error/warning lines, end. A result longer than a page is itself stored as a descriptor: read it the same way.
${TOOL_LINES}

${REF_MARKING}
It becomes "ref:parse_config", which every descriptor tool accepts: fd_to_file(fd="ref:parse_config", file_path="src/config.py"). list_refs lists the refs; get_ref returns one. Reusing an id with changed content makes a new version; earlier ones stay readable as "ref:parse_config@1". Tags inside code blocks or inline code are not refs.
</fdref_instructions>`;
