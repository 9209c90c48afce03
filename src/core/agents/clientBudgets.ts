/**
 * How long one tool result of fdref's MCP server may be for each client: the longest that client passes to its
 * model whole. Clients cut a longer result themselves (from the middle, to a file, at a byte count) and the model
 * loses what was cut without being told where it is; a result kept under the client's cut is stored as an `fd:`
 * instead and answered with a preview and how to read the rest. The server takes the budget from `--result-chars`
 * (Connect an Agent writes it per client), else from the client's `clientInfo.name` at `initialize`, else
 * `DEFAULT_RESULT_CHARS`.
 *
 * What each client does with a long MCP result, read in its source or documentation (docs/MCP.md keeps the table):
 * - Cline (3.x, `@cline/core`; the extension names itself "Cline", the CLI "cline-cli"): every tool result is cut
 *   from the middle to 8,000 characters (`DEFAULT_MAX_TOOL_RESULT_CHARS`, cline/cline
 *   `sdk/packages/core/src/session/services/message-builder.ts`), marker `...[truncated N chars]...`.
 * - Codex (`codex-mcp-client`): tool outputs follow the model's truncation policy; models without metadata (any
 *   local or third-party one) fall back to `TruncationPolicyConfig::bytes(10_000)` (openai/codex
 *   `codex-rs/core`, `model_info_from_slug`'s fallback metadata); OpenAI's own models to 10,000 tokens. Measured: about 12k
 *   characters kept. 9,000 characters stay under 10,000 bytes unless many are outside ASCII.
 * - Qwen Code (`qwen-code`): a text result over `truncateToolOutputThreshold` (default 25,000 characters,
 *   `DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD`, QwenLM/qwen-code `packages/core/src/config/config.ts`) is saved to a
 *   file and cut to its first and last lines (`truncateToolOutputLines`, default 1,000).
 * - Gemini CLI (`gemini-cli-mcp-client`): an MCP result of one text part over `truncateToolOutputThreshold`
 *   (default 40,000 characters, lowered to four times the tokens left in the context; google-gemini/gemini-cli
 *   `packages/core/src/config/config.ts` `DEFAULT_TRUNCATE_TOOL_OUTPUT_THRESHOLD`,
 *   `packages/core/src/scheduler/tool-executor.ts`) is saved to a file and cut; 32,000 leaves it room.
 * - Claude Code (`claude-code`): a result over 50,000 characters is saved to a file and the model is given its
 *   path; `MAX_MCP_OUTPUT_TOKENS` (default 25,000 tokens) refuses a longer one (Claude Code's documentation,
 *   docs.anthropic.com/en/docs/claude-code/mcp, "MCP output limits").
 * - Continue (`continue-cli-client`, `continue-client`): no cut of MCP results found; the CLI passes
 *   `JSON.stringify(result.content)` on (continuedev/continue `extensions/cli/src/tools/index.tsx`).
 * - Cursor (`cursor-vscode`), VS Code (`Visual Studio Code`, `code-server`, ...): no cut of MCP results found; the default.
 *
 * Whether the client's model sees a result's `structuredContent` instead of its text: Claude Code passes the model
 * `JSON.stringify(structuredContent)` alone whenever a result has one (anthropics/claude-code issues 9962, 55677,
 * 79944), and so does Codex (openai/codex `FunctionCallOutputPayload::from(&CallToolResult)`, issue 38287), and so
 * does VS Code (1.139's MCP tool adds a text part only when a result has no `structuredContent`, and then one part
 * holding its JSON: seen in its workbench bundle, and in the integration test of VS Code's MCP client). Those
 * get no `structuredContent` (and no `outputSchema`, which would require it): their models read the text as before.
 * Every other client gets it, with the text in it too (`resultFacts`), so a client that prefers it loses nothing.
 */

/** A client's name as it gives it in `clientInfo.name` (matched case-insensitively), and its budget. */
export interface ClientBudget {
  /** Who the client is, for people (docs, logs). */
  readonly label: string;
  /** Whether `clientInfo.name` is this client's. */
  readonly matches: (name: string) => boolean;
  readonly resultChars: number;
  /** Whether its model sees `structuredContent` in place of the text (then the server sends none). */
  readonly structuredReplacesText?: boolean;
}

/**
 * The budget of a client fdref knows nothing of: the cap fdref always had, under Claude Code's 50,000 and Gemini
 * CLI's 40,000 and passed whole by Continue, Cursor and VS Code. Cline, Codex and Qwen Code cut sooner and are
 * recognised by name (or told with `--result-chars`).
 */
export const DEFAULT_RESULT_CHARS = 40_000;
/** The bounds of `--result-chars`: room for an error or a reply naming a stored result, and no more than a resource read. */
export const MIN_RESULT_CHARS = 2_000;
export const MAX_RESULT_CHARS = 4_000_000;

const named =
  (...names: string[]) =>
  (name: string): boolean =>
    names.includes(name.trim().toLowerCase());

export const CLIENT_BUDGETS: readonly ClientBudget[] = [
  { label: 'Cline', matches: (name) => /\bcline\b/i.test(name), resultChars: 8_000 },
  {
    label: 'Codex',
    matches: (name) => /^codex\b/i.test(name.trim()),
    resultChars: 9_000,
    structuredReplacesText: true,
  },
  { label: 'Qwen Code', matches: (name) => /^qwen\b/i.test(name.trim()), resultChars: 24_000 },
  { label: 'Gemini CLI', matches: (name) => /^gemini\b/i.test(name.trim()), resultChars: 32_000 },
  { label: 'Claude Code', matches: named('claude-code'), resultChars: 40_000, structuredReplacesText: true },
  { label: 'Continue', matches: named('continue-cli-client', 'continue-client'), resultChars: 40_000 },
  { label: 'Cursor', matches: named('cursor-vscode', 'cursor'), resultChars: DEFAULT_RESULT_CHARS },
  {
    label: 'VS Code',
    // `clientInfo.name` is the product's long name: `Visual Studio Code`, `Visual Studio Code - Insiders`,
    // `Code - OSS`, `code-server`, `VSCodium`.
    matches: (name) => /^(visual studio code\b|code - oss\b|code-server\b|vscodium\b|vscode$)/i.test(name.trim()),
    resultChars: DEFAULT_RESULT_CHARS,
    structuredReplacesText: true,
  },
];

/** What fits the client named `name` (its `clientInfo.name`), and which known client it is, if any. */
export function clientBudget(name: string | undefined): {
  readonly resultChars: number;
  readonly structured: boolean;
  readonly client?: string;
} {
  const known = name === undefined ? undefined : CLIENT_BUDGETS.find((budget) => budget.matches(name));
  return known === undefined
    ? { resultChars: DEFAULT_RESULT_CHARS, structured: true }
    : { resultChars: known.resultChars, structured: known.structuredReplacesText !== true, client: known.label };
}
