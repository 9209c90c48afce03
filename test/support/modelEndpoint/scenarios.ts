/**
 * The scripted conversations of the model endpoint, the same for both protocols. Stateless: the scenario is
 * chosen from the last paragraph (the text after the last blank line) of the last message the user typed
 * (tool-result messages do not count); the step is the number of assistant messages after that message. The
 * first line of the paragraph that starts with a keyword (case-insensitive, leading spaces ignored) decides;
 * no keyword gives the default answer.
 *
 *   (none)               a demo answer: `ref:greet` (a Python fence) and `ref:config` (JSON naming 1-11 and 2-1)
 *   refs                 nested refs, a fenced ref, a tag inside a code block, `dup` twice, `bad id`, an unclosed tag
 *   call NAME {json}     step 0: "Calling NAME." and the call (one per `call` line); step 1: quotes each result
 *   call! NAME {json}    the same, also when the request offers no tool NAME (a model that makes one up)
 *   write PATH           step 0: `ref:greeting` and a call of fd_to_file; step 1: says whether the write succeeded
 *   slow                 100 chunks, one every 100 ms
 *   error NNN            that HTTP error in the provider's shape (400 401 403 404 429 500 503 529)
 *   context              a 400 saying the prompt is longer than the context window, in the provider's words
 *   flat error NNN, flat context
 *                        the same, with the OpenAI side's body flat, as SGLang, TensorRT-LLM, FastChat and older vLLM
 *                        send it: `{"object":"error","message",...}` (context in vLLM's words)
 *   refusal              a refusal: OpenAI streams it in `delta.refusal`, Anthropic as text with stop reason `refusal`
 *   drop                 some text, then the socket is destroyed mid-stream
 *   malformed            some text, then a `data:` line that is not JSON
 *   big                  about 500 KB with 20 refs, in 10,000 chunks
 *   xss                  HTML and Markdown that would run script if rendered unsafely, in and out of refs
 *   entities             prose and JSON naming the Structs entities 1-11, 2-1, 9-11 and 0-1
 *   fd workflow          with `run COMMAND`, `search PATTERN` and `write PATH` lines: run_command, then search_fd,
 *                        read_fd (the tail) and fd_to_file on the descriptor the command's output became, one call
 *                        per step; tools are found by name or as `<prefix>__name` (Claude Code's `mcp__fdref__run_command`).
 *                        With an `extract LINE COUNT` line, read_fd extracts COUNT lines from LINE on into a new
 *                        descriptor (`extract_to_new_fd`) and fd_to_file writes that one
 *   shell COMMAND        step 0: a call of the agent's own shell tool (the first offered of SHELL_TOOLS, with that
 *                        tool's argument shape) running COMMAND; step 1: says how many characters came back;
 *                        step 2: the end of the script
 *
 * The exact texts are below and in README.md; integration tests rely on them.
 */

/** A message of the request, reduced to what the scripts look at. */
export type ConversationTurn =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant' }
  | { readonly kind: 'toolResults'; readonly results: readonly ReceivedToolResult[] };

export interface ReceivedToolResult {
  readonly callId: string;
  /** The name of the tool of the matching call in the message before. */
  readonly name: string;
  readonly content: string;
  readonly isError: boolean;
}

export interface ScriptedToolCall {
  readonly name: string;
  /** The JSON text of the arguments, complete. */
  readonly arguments: string;
}

export type ScriptedFailure = 400 | 401 | 403 | 404 | 429 | 500 | 503 | 529 | 'context';
export const SCRIPTED_ERROR_STATUSES: readonly ScriptedFailure[] = [400, 401, 403, 404, 429, 500, 503, 529];

export type ScriptedReply =
  /** Text in chunks, then these tool calls; `chunkDelayMs` overrides the endpoint's delay. */
  | {
      readonly kind: 'answer';
      readonly chunks: readonly string[];
      readonly toolCalls: readonly ScriptedToolCall[];
      readonly chunkDelayMs?: number;
      /** The model refuses: the chunks are the refusal's text. */
      readonly refusal?: boolean;
    }
  /** `flat`: the body without the `error` wrapper (the OpenAI side only; Anthropic always wraps). */
  | { readonly kind: 'error'; readonly failure: ScriptedFailure; readonly flat?: boolean }
  /** These chunks, then the socket is destroyed. */
  | { readonly kind: 'drop'; readonly chunks: readonly string[] }
  /** These chunks, then a line that is not JSON, then the response ends. */
  | { readonly kind: 'malformed'; readonly chunks: readonly string[] };

const FENCE = '```';

// ---- The texts ----------------------------------------------------------------------------------------------

export const DEFAULT_ANSWER = `Here is a small example with two refs you can reuse.

<ref id="greet">
${FENCE}python
def greet(name: str) -> str:
    return f"Hello, {name}!"
${FENCE}
</ref>

And a config that names two Structs entities, player \`1-11\` and planet \`2-1\`:

<ref id="config">
${FENCE}json
{
  "player": "1-11",
  "planet": "2-1",
  "greeting": "Hello"
}
${FENCE}
</ref>

You can export either ref to a file: ask me to write it, or use **Export Ref to File...** on \`ref:greet\` or \`ref:config\`.`;

export const REFS_ANSWER = `Refs, the tricky way.

<ref id="outer">
Outer text before.
<ref id="inner">inner content</ref>
Outer text after.
</ref>

<ref id="fenced">
${FENCE}ts
export const answer = 42;
${FENCE}
</ref>

A tag shown as code is not a ref:

${FENCE}html
<ref id="literal">this is not a ref</ref>
${FENCE}

<ref id="dup">first version</ref>
<ref id="dup">second version</ref>

<ref id="bad id">an invalid id</ref>

<ref id="unclosed">
this ref never ends`;

export const XSS_ANSWER = `Careful with this one: none of it may run.

<script>window.__fdrefXss = 'script'</script>
<img src=x onerror="window.__fdrefXss = 'img'">
[click](javascript:window.__fdrefXss='link')
<a href="javascript:window.__fdrefXss='anchor'">anchor</a>
<iframe src="javascript:window.__fdrefXss='iframe'"></iframe>
<svg onload="window.__fdrefXss = 'svg'"></svg>

<ref id="xss_ref">
<script>window.__fdrefXss = 'script-in-ref'</script>
<img src=x onerror="window.__fdrefXss = 'img-in-ref'">
[click](javascript:window.__fdrefXss='link-in-ref')
<a href="javascript:window.__fdrefXss='anchor-in-ref'">anchor</a>
</ref>

<ref id="xss_html">
${FENCE}html
<svg onload="window.__fdrefXss = 'svg-in-fence'"></svg>
<iframe src="javascript:window.__fdrefXss='iframe-in-fence'"></iframe>
${FENCE}
</ref>

If you can read every line above as text, nothing ran.`;

export const ENTITIES_ANSWER = `Player \`1-11\` owns planet 2-1. Fleet 9-11 belongs to that player, and guild 0-1 is the player's guild.

${FENCE}json
{
  "player": "1-11",
  "planet": "2-1",
  "fleet": "9-11",
  "guild": "0-1"
}
${FENCE}`;

/** The `refusal` script's text, in the words OpenAI's models refuse with. */
export const REFUSAL_TEXT = "I'm sorry, but I can't help with that request.";

export const DROP_TEXT = 'This answer breaks off in the mid';
export const MALFORMED_TEXT = 'This stream turns into garbage';

export const SLOW_CHUNK_COUNT = 100;
export const SLOW_CHUNK_DELAY_MS = 100;
/** "Counting slowly:", then " 1" ... " 99": 100 chunks. */
export const SLOW_CHUNKS: readonly string[] = [
  'Counting slowly:',
  ...Array.from({ length: SLOW_CHUNK_COUNT - 1 }, (_, i) => ` ${i + 1}`),
];

export const BIG_PART_COUNT = 20;
export const BIG_CHUNK_COUNT = 10_000;
const BIG_LINES_PER_PART = 382;

/** 20 parts, each a heading, 382 lines of filler and a ref `part_N` holding a small Python fence. */
export function bigAnswer(): string {
  bigAnswerText ??= Array.from({ length: BIG_PART_COUNT }, (_, part) => {
    const n = part + 1;
    const filler = Array.from(
      { length: BIG_LINES_PER_PART },
      (_, line) => `Line ${line + 1} of part ${n}: the quick brown fox jumps over the lazy dog.\n`,
    ).join('');
    return `## Part ${n}\n\n${filler}\n<ref id="part_${n}">\n${FENCE}python\ndef part_${n}():\n    return ${n}\n${FENCE}\n</ref>\n\n`;
  }).join('');
  return bigAnswerText;
}
let bigAnswerText: string | undefined;

/** The first words of the answer to `write PATH` (step 0), before its ref. */
export function writeAnswer(path: string): string {
  return `Here is a greeting script; I'll write it to ${path}.

<ref id="greeting">
${FENCE}python
def greeting() -> str:
    return "Hello from fdref!"
${FENCE}
</ref>
`;
}

/** How many characters of each tool result the answers quote. */
export const QUOTED_RESULT_CHARS = 300;
export const END_OF_SCRIPT = 'That is all for this script.';

// ---- Choosing the reply -------------------------------------------------------------------------------------

const KEYWORDS = ['refs', 'slow', 'context', 'drop', 'malformed', 'big', 'xss', 'entities', 'refusal'] as const;

/** What the script answers to a request with these messages and these tools offered. */
export function scriptedReply(turns: readonly ConversationTurn[], offeredTools: readonly string[]): ScriptedReply {
  const lastUser = findLastIndex(turns, (turn) => turn.kind === 'user');
  const lastUserTurn = turns[lastUser];
  const userText = lastUserTurn?.kind === 'user' ? lastUserTurn.text : '';
  const after = turns.slice(lastUser + 1);
  const step = after.filter((turn) => turn.kind === 'assistant').length;
  const lastResults = [...after].reverse().find((turn) => turn.kind === 'toolResults');
  const results = lastResults?.kind === 'toolResults' ? lastResults.results : [];

  const paragraph = lastParagraph(userText);
  for (const rawLine of paragraph.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (/^fd\s+workflow\b/i.test(line)) return fdWorkflowScenario(paragraph, after, offeredTools);
    if (/^call!?\s+\S/i.test(line)) return callScenario(paragraph, step, results, offeredTools);
    const shell = /^shell\s+(\S.*)$/i.exec(line);
    if (shell?.[1] !== undefined) return shellScenario(shell[1].trim(), step, results, offeredTools);
    const write = /^write\s+(\S.*)$/i.exec(line);
    if (write?.[1] !== undefined) return writeScenario(write[1].trim(), step, results, offeredTools);
    const error = /^(flat\s+)?error\s+(\d{3})\b/i.exec(line);
    if (error?.[2] !== undefined)
      return {
        kind: 'error',
        failure: scriptedFailureOf(Number(error[2])),
        ...(error[1] === undefined ? {} : { flat: true }),
      };
    if (/^flat\s+context\b/i.test(line)) return { kind: 'error', failure: 'context', flat: true };
    const keyword = KEYWORDS.find((word) => new RegExp(`^${word}\\b`, 'i').test(line));
    if (keyword !== undefined) return keywordScenario(keyword);
  }
  return answer(DEFAULT_ANSWER, VARIED_SIZES);
}

/**
 * The text after the last blank line. A client may merge consecutive user messages (after a failed answer,
 * say) into one, separated by a blank line; the newest of them is the one to answer.
 */
function lastParagraph(text: string): string {
  return (
    text
      .split(/\r?\n[ \t]*\r?\n/)
      .filter((part) => part.trim() !== '')
      .pop() ?? ''
  );
}

function keywordScenario(keyword: (typeof KEYWORDS)[number]): ScriptedReply {
  switch (keyword) {
    case 'refs':
      return answer(REFS_ANSWER, SMALL_SIZES);
    case 'slow':
      return { kind: 'answer', chunks: SLOW_CHUNKS, toolCalls: [], chunkDelayMs: SLOW_CHUNK_DELAY_MS };
    case 'context':
      return { kind: 'error', failure: 'context' };
    case 'drop':
      return { kind: 'drop', chunks: splitText(DROP_TEXT, VARIED_SIZES) };
    case 'malformed':
      return { kind: 'malformed', chunks: splitText(MALFORMED_TEXT, VARIED_SIZES) };
    case 'big':
      return { kind: 'answer', chunks: splitEvenly(bigAnswer(), BIG_CHUNK_COUNT), toolCalls: [] };
    case 'xss':
      return answer(XSS_ANSWER, VARIED_SIZES);
    case 'entities':
      return answer(ENTITIES_ANSWER, VARIED_SIZES);
    case 'refusal':
      return { kind: 'answer', chunks: splitText(REFUSAL_TEXT, VARIED_SIZES), toolCalls: [], refusal: true };
  }
}

function scriptedFailureOf(status: number): ScriptedFailure {
  return SCRIPTED_ERROR_STATUSES.find((known) => known === status) ?? (status >= 500 ? 500 : 400);
}

/** Every `call NAME {json}` line of the paragraph, in order. Valid JSON is sent compact; anything else as written. */
function callScenario(
  paragraph: string,
  step: number,
  results: readonly ReceivedToolResult[],
  offeredTools: readonly string[],
): ScriptedReply {
  if (step >= 2) return answer(END_OF_SCRIPT, VARIED_SIZES);
  if (step === 1) return answer(quoteResults(results), VARIED_SIZES);
  const calls: (ScriptedToolCall & { forced: boolean })[] = [];
  for (const line of paragraph.split(/\r?\n/)) {
    const match = /^\s*call(!?)\s+(\S+)\s*(.*)$/i.exec(line);
    if (match?.[2] === undefined) continue;
    const argumentsText = (match[3] ?? '').trim();
    calls.push({
      name: match[2],
      arguments: compactJson(argumentsText === '' ? '{}' : argumentsText),
      forced: match[1] === '!',
    });
  }
  const missing = calls.find((call) => !call.forced && !offeredTools.includes(call.name));
  if (missing !== undefined)
    return answer(`I can't call ${missing.name}: the request offers no tool by that name.`, VARIED_SIZES);
  return {
    kind: 'answer',
    chunks: splitText(`Calling ${calls.map((call) => call.name.slice(0, 100)).join(', ')}.`, VARIED_SIZES),
    toolCalls: calls.map(({ name, arguments: args }) => ({ name, arguments: args })),
  };
}

function writeScenario(
  path: string,
  step: number,
  results: readonly ReceivedToolResult[],
  offeredTools: readonly string[],
): ScriptedReply {
  if (step >= 2) return answer(END_OF_SCRIPT, VARIED_SIZES);
  if (step === 1) {
    const result = results[0];
    if (result === undefined) return answer('The write sent no result back.', VARIED_SIZES);
    const verdict = result.isError ? 'The write failed.' : 'The write succeeded.';
    return answer(`${verdict} ${result.name} said: ${result.content.slice(0, QUOTED_RESULT_CHARS)}`, VARIED_SIZES);
  }
  if (!offeredTools.includes('fd_to_file'))
    return answer("I can't write files: the request offers no fd_to_file tool.", VARIED_SIZES);
  return {
    kind: 'answer',
    chunks: splitText(writeAnswer(path), VARIED_SIZES),
    toolCalls: [{ name: 'fd_to_file', arguments: JSON.stringify({ fd: 'ref:greeting', file_path: path }) }],
  };
}

// ---- shell: the agent's own shell tool -------------------------------------------------------------------

/**
 * The shell tools of the agents, in the order the `shell` script looks for them, each with the arguments it takes
 * for one command line (from each agent's own tool definition). Claude Code `Bash` and Continue `Bash`
 * `{command}`; Codex `exec_command {cmd}` (its unified exec), `shell_command {command}` and the older `shell` with an
 * argv; Gemini CLI and Qwen Code `run_shell_command {command}`; Cline CLI 3 `run_commands {commands: [...]}`, the Cline
 * extension `execute_command {command, requires_approval}`.
 */
export const SHELL_TOOLS: Readonly<Record<string, (command: string) => Record<string, unknown>>> = {
  Bash: (command) => ({ command, description: 'Print the build log' }),
  exec_command: (command) => ({ cmd: command }),
  shell_command: (command) => ({ command }),
  shell: (command) => ({ command: ['bash', '-lc', command] }),
  run_shell_command: (command) => ({ command, description: 'Print the build log', is_background: false }),
  run_commands: (command) => ({ commands: [command] }),
  execute_command: (command) => ({ command, requires_approval: false }),
};

/** The shell tool of SHELL_TOOLS the request offers, if any. */
export function offeredShellTool(offeredTools: readonly string[]): string | undefined {
  return Object.keys(SHELL_TOOLS).find((name) => offeredTools.includes(name));
}

/** The answer after the shell tool's result: how much of the output reached the model. */
export function shellResultAnswer(chars: number): string {
  return `The shell tool sent back ${chars} characters.`;
}

function shellScenario(
  command: string,
  step: number,
  results: readonly ReceivedToolResult[],
  offeredTools: readonly string[],
): ScriptedReply {
  if (step >= 2) return answer(END_OF_SCRIPT, VARIED_SIZES);
  if (step === 1) return answer(shellResultAnswer(results[0]?.content.length ?? 0), VARIED_SIZES);
  const tool = offeredShellTool(offeredTools);
  if (tool === undefined)
    return answer(
      `I can't run a command: the request offers none of ${Object.keys(SHELL_TOOLS).join(', ')}.`,
      VARIED_SIZES,
    );
  const args = SHELL_TOOLS[tool]?.(command) ?? { command };
  return {
    kind: 'answer',
    chunks: splitText(`Running it with ${tool}.`, VARIED_SIZES),
    toolCalls: [{ name: tool, arguments: JSON.stringify(args) }],
  };
}

// ---- fd workflow -------------------------------------------------------------------------------------------

/** The `tail` the workflow reads with read_fd. */
export const FD_WORKFLOW_TAIL_LINES = 3;

/** The steps of `fd workflow` after the command has ended, in order; each is one call of the tool with this name. */
const FD_WORKFLOW_STEPS = ['search_fd', 'read_fd', 'fd_to_file'] as const;

/** How many times the workflow calls wait_command for one command before it gives up. */
export const FD_WORKFLOW_MAX_WAITS = 20;

/**
 * The offered tool with this name, or named `<prefix>__name` as MCP clients name a server's tools (Claude Code's and
 * Qwen Code's `mcp__fdref__run_command`, Codex's namespace `mcp__fdref` as the endpoint flattens it), or
 * `mcp_<server>_name` (Gemini CLI's `mcp_fdref_run_command`).
 */
function offeredTool(name: string, offeredTools: readonly string[]): string | undefined {
  return (
    offeredTools.find((tool) => tool === name) ??
    offeredTools.find((tool) => tool.endsWith(`__${name}`)) ??
    offeredTools.find((tool) => /^mcp_[^_]+/.test(tool) && tool.endsWith(`_${name}`))
  );
}

/**
 * Whether a tool result is a command still running: `run_command` or `wait_command` answered `state="running"`
 * (quotes escaped too, as a client passing the result on as JSON text has them).
 */
export function isRunningCommandResult(content: string): boolean {
  return /<command_result\b[^>]*?\bstate=\\?"running\\?"/.test(content);
}

/** The descriptor a tool result names as its `fd` (or `new_fd`) attribute, else the first `fd:N` in it. */
function descriptorOf(content: string, attribute = 'fd'): string | undefined {
  return new RegExp(`\\b${attribute}=\\\\?"(fd:\\d+)\\\\?"`).exec(content)?.[1];
}

/**
 * `fd workflow`: what an agent does with a long output through fdref's tools. Step 0 runs the `run` line's command;
 * while the result says the command is still running (`state="running"`, a command that outlasts the server's wait),
 * it calls `wait_command` on its descriptor; once the command has ended, the descriptor its first result names
 * (`fd="fd:N"`) is searched for the `search` line's pattern (a regular expression), its last lines read, and
 * written to the `write` line's path. Any error result ends the script, quoting it; after the write, the answer
 * quotes every result.
 */
function fdWorkflowScenario(
  paragraph: string,
  after: readonly ConversationTurn[],
  offeredTools: readonly string[],
): ScriptedReply {
  const field = (name: string): string | undefined =>
    new RegExp(`^\\s*${name}\\s+(\\S.*)$`, 'im').exec(paragraph)?.[1]?.trim();
  const command = field('run');
  const pattern = field('search');
  const target = field('write');
  const extract = /^(\d+)\s+(\d+)$/.exec(field('extract') ?? '');
  if (command === undefined || pattern === undefined || target === undefined)
    return answer('An fd workflow needs a `run COMMAND`, a `search PATTERN` and a `write PATH` line.', VARIED_SIZES);
  const results = after.flatMap((turn) => (turn.kind === 'toolResults' ? turn.results : []));
  const failed = results.find((result) => result.isError);
  if (failed !== undefined)
    return answer(
      `The workflow stopped: ${failed.name} failed: ${failed.content.slice(0, QUOTED_RESULT_CHARS)}`,
      VARIED_SIZES,
    );
  const call = (wanted: string, args: Record<string, unknown>): ScriptedReply => {
    const tool = offeredTool(wanted, offeredTools);
    return tool === undefined
      ? answer(`I can't run the workflow: the request offers no ${wanted} tool.`, VARIED_SIZES)
      : workflowCall(tool, args);
  };
  if (results.length === 0) return call('run_command', { command });
  const first = results[0]?.content ?? '';
  const fd = descriptorOf(first) ?? /\bfd:\d+/.exec(first)?.[0];
  // The results that said "still running": the first (run_command's) and each wait_command's after it.
  let running = 0;
  while (running < results.length && isRunningCommandResult(results[running]?.content ?? '')) running++;
  if (running === results.length) {
    if (fd === undefined)
      return answer(
        `The command is still running, but its result names no descriptor: ${first.slice(0, QUOTED_RESULT_CHARS)}`,
        VARIED_SIZES,
      );
    if (running > FD_WORKFLOW_MAX_WAITS)
      return answer(`The command was still running after ${FD_WORKFLOW_MAX_WAITS} waits; I give up.`, VARIED_SIZES);
    return call('wait_command', { fd });
  }
  // After the result that ended the command: the search, the read and the write, one per result.
  const done = results.slice(running + 1);
  const step = done.length;
  if (step >= FD_WORKFLOW_STEPS.length) {
    return answer(
      `The workflow is done.\n\n${results.map((result) => `${result.name}: ${result.content.slice(0, QUOTED_RESULT_CHARS)}`).join('\n\n')}`,
      VARIED_SIZES,
    );
  }
  const wanted = FD_WORKFLOW_STEPS[step] ?? 'search_fd';
  if (fd === undefined)
    return answer(
      `The command's output was short enough to come back whole, so there is no descriptor to work on: ${first.slice(0, QUOTED_RESULT_CHARS)}`,
      VARIED_SIZES,
    );
  switch (wanted) {
    case 'search_fd':
      return call(wanted, { fd, pattern, regex: true });
    case 'read_fd':
      return extract === null
        ? call(wanted, { fd, mode: 'tail', count: FD_WORKFLOW_TAIL_LINES })
        : call(wanted, {
            fd,
            mode: 'line',
            start: Number(extract[1]),
            count: Number(extract[2]),
            extract_to_new_fd: true,
          });
    default: {
      const extracted = descriptorOf(done[1]?.content ?? '', 'new_fd');
      if (extract !== null && extracted === undefined)
        return answer(
          `read_fd made no new descriptor: ${(done[1]?.content ?? '').slice(0, QUOTED_RESULT_CHARS)}`,
          VARIED_SIZES,
        );
      return call(wanted, { fd: extracted ?? fd, file_path: target });
    }
  }
}

function workflowCall(tool: string, args: Record<string, unknown>): ScriptedReply {
  return {
    kind: 'answer',
    chunks: splitText(`Calling ${tool}.`, VARIED_SIZES),
    toolCalls: [{ name: tool, arguments: JSON.stringify(args) }],
  };
}

/** "Result of NAME: ..." (or "Error from NAME: ...") for each result, separated by a blank line. */
export function quoteResults(results: readonly ReceivedToolResult[]): string {
  if (results.length === 0) return 'No tool results came back.';
  return results
    .map(
      (result) =>
        `${result.isError ? 'Error from' : 'Result of'} ${result.name}: ${result.content.slice(0, QUOTED_RESULT_CHARS)}`,
    )
    .join('\n\n');
}

/** Whether a tool result reads as a failure when the protocol has no flag for it (or the flag was not set). */
export function looksLikeToolError(content: string): boolean {
  return content.includes('<fd_error') || /^\s*error\b/i.test(content);
}

// ---- Chunking ----------------------------------------------------------------------------------------------

/** Chunk sizes cycled through, so tags and fences are cut at many different places. */
const VARIED_SIZES = [7, 3, 11, 5, 13, 2, 9];
const SMALL_SIZES = [1, 3, 2, 5, 1, 4, 2, 6];

function answer(text: string, sizes: readonly number[]): ScriptedReply {
  return { kind: 'answer', chunks: splitText(text, sizes), toolCalls: [] };
}

/** Cuts `text` into pieces of the given sizes in turn, never between the halves of a surrogate pair. */
export function splitText(text: string, sizes: readonly number[]): string[] {
  const chunks: string[] = [];
  let start = 0;
  for (let i = 0; start < text.length; i++) {
    let end = Math.min(text.length, start + (sizes[i % sizes.length] ?? 8));
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
    chunks.push(text.slice(start, end));
    start = end;
  }
  return chunks;
}

/** Exactly `count` pieces of nearly equal length (ASCII text). */
function splitEvenly(text: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    text.slice(Math.floor((i * text.length) / count), Math.floor(((i + 1) * text.length) / count)),
  );
}

/** Tool arguments in several pieces, as the real APIs stream them. */
export function argumentPieces(argumentsText: string): string[] {
  return splitText(argumentsText, [Math.max(1, Math.ceil(argumentsText.length / 4))]);
}

function compactJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function findLastIndex<T>(items: readonly T[], predicate: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (predicate(items[i] as T)) return i;
  return -1;
}
