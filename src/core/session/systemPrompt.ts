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

/** Teaches a model the descriptor tools and the `<ref>` convention, briefly, with one example each. */
export const SYSTEM_PROMPT_ADDITIONS = `<fdref_instructions>
Large content is kept out of the conversation as numbered descriptors. When a tool output or a user message is too long, you see a <fd_result> or <fd_user_input> with an id like "fd:1", a preview of its first page and the number of pages.
- read_fd reads more of it: one page by default, or lines or characters (mode "line"/"char"), or the last lines (mode "tail", count=N). Example: read_fd(fd="fd:1", start=2) reads page 2; read_fd(fd="fd:1", mode="tail", count=20) the last 20 lines.
- search_fd finds the lines that contain a text (regex=true for a regular expression), with line numbers and context, and counts all matches; read around one with mode "line". Example: search_fd(fd="fd:1", pattern="error").
- A result longer than a page is itself stored as a descriptor: read it the same way.
- fd_to_file writes a descriptor to a workspace file, replacing it, appending, or inserting before a line. Example: fd_to_file(fd="fd:1", file_path="logs/build.txt").

${REF_MARKING}
It becomes "ref:parse_config", which every descriptor tool accepts: fd_to_file(fd="ref:parse_config", file_path="src/config.py"). list_refs lists the refs; get_ref returns one. Reusing an id with changed content makes a new version; earlier ones stay readable as "ref:parse_config@1". Tags inside code blocks or inline code are not refs.
</fdref_instructions>`;
