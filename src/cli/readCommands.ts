/**
 * `read`, `search`, `tail`, `list` and `keep`: the store's descriptors from a terminal, for agents without
 * fdref's MCP server and for people. Each is a call of the core's tool (`read_fd`, `search_fd`, `list_fds`,
 * `store_text`'s keeping through the session) over a `StoreToolSession`, as the MCP server makes them: the same
 * code, the same messages; what a tool returns is printed as it is.
 */
import { StringDecoder } from 'node:string_decoder';
import { errorMessage } from '../core/errors';
import { nodeFileSystem } from '../core/files/fileSystemPort';
import { SESSION_ID } from '../core/files/fdrefPaths';
import { OutputPreviewBuilder, previewLimits, renderOutputPreview } from '../core/presentation/outputPreview';
import { Store, type StoredSessionMeta } from '../core/store';
import { findAgentSession, keepInAgentSession, OutputSpool } from '../core/store/agentSession';
import { StoreToolSession } from '../core/store/storeToolSession';
import { ToolError } from '../core/toolError';
import { resolveSessionArgument } from '../core/tools/sessionArgument';
import type { ToolContext } from '../core/tools/toolContext';
import { runTool } from '../core/tools/toolTable';
import { parseOptions, UsageError, wholeNumber, type ParsedOptions } from './options';
import { DEFAULT_PREVIEW_CHARS, handleLine, MIN_PREVIEW_CHARS } from './previewText';
import { agentKey, STATUS, STORE_OPTIONS, storeFolder, writeOut } from './storeAccess';
import type { CliIo, Subcommand } from './subcommand';

/** Characters of a page, as the MCP server's default. */
const PAGE_CHARS = 8_000;
/** The most a read returns at once (what MCP clients keep inline). */
const RESULT_CHARS = 40_000;

const COMMON_HELP = `
  --store <folder>      fdref's session store (default: $FDREF_STORE)
  --session <id|name>   the session (default: the newest of --agent, and of --conversation when given)
  --agent <id>          claude-code, codex, gemini-cli, qwen-code, cline, copilot, continue, terminal (default)
  --conversation <id>   the agent's conversation

Exit status: 0 done, 1 not found or no match, 2 wrong usage, 3 the store cannot be used.
`;

export const READ_HELP = `Usage: cli.js read <fd> [--lines <a>-<b> | --page <n>] [options]

Prints a page (default the first) or a range of lines of descriptor <fd> (e.g. fd:3), as read_fd returns it.
${COMMON_HELP}`;

export const SEARCH_HELP = `Usage: cli.js search <fd> <regex> [--context <n>] [--max <n>] [options]

Prints the lines of <fd> that match the JavaScript regular expression, with line numbers and <n> lines of context,
as search_fd returns them (it counts every match).
${COMMON_HELP}`;

export const TAIL_HELP = `Usage: cli.js tail <fd> [<n>] [options]

Prints the last <n> lines (default 50) of <fd>, as read_fd returns them.
${COMMON_HELP}`;

export const LIST_HELP = `Usage: cli.js list [options]

Lists the session's descriptors, newest last, as list_fds does.
${COMMON_HELP}`;

export const KEEP_HELP = `Usage: <command> | cli.js keep [--preview-chars <n>] [options]

Keeps what comes on stdin whole as a new descriptor of the session of --agent (and --conversation; else of the
day), and prints its handle and a preview of at most --preview-chars characters (default ${DEFAULT_PREVIEW_CHARS}).
${COMMON_HELP}`;

const READING = { values: [...STORE_OPTIONS, '--session'], flags: [] as string[] };

/** A reading sub-command: its options, then the tool call it makes. */
function reading(
  help: string,
  extra: { values?: readonly string[]; positionals: [min: number, max: number] },
  call: (options: ParsedOptions) => { tool: string; args: Record<string, unknown> },
): Subcommand {
  return async (argv, io) => {
    let options: ParsedOptions;
    let request: { tool: string; args: Record<string, unknown> };
    try {
      options = parseOptions(argv, { values: [...READING.values, ...(extra.values ?? [])], flags: READING.flags });
      if (options.flags.has('--help')) {
        await writeOut(io.stdout, help);
        return STATUS.ok;
      }
      const [min, max] = extra.positionals;
      if (options.positionals.length < min || options.positionals.length > max || options.rest !== undefined)
        throw new UsageError(`wrong arguments; ${help.split('\n')[0]}`);
      request = call(options);
    } catch (error) {
      return usage(io, error, help);
    }
    return withSession(io, options, async (session) => {
      const context: ToolContext = {
        session,
        pageSize: PAGE_CHARS,
        resultChars: RESULT_CHARS,
        workspaceRoots: [io.cwd],
        fileSystem: nodeFileSystem,
      };
      const outcome = await runTool(context, request.tool, request.args);
      await writeOut(outcome.ok ? io.stdout : io.stderr, outcome.text + '\n');
      if (!outcome.ok) return outcome.error.type === 'not_found' ? STATUS.notFound : STATUS.usage;
      // No match is a result of its own, as grep's status 1.
      const opening = outcome.text.slice(0, outcome.text.indexOf('>'));
      return / matches="0"/.test(opening) ? STATUS.notFound : STATUS.ok;
    });
  };
}

export const read = reading(READ_HELP, { values: ['--lines', '--page'], positionals: [1, 1] }, (options) => {
  const fd = options.positionals[0] as string;
  const lines = options.values.get('--lines');
  const page = options.values.get('--page');
  if (lines !== undefined && page !== undefined) throw new UsageError('give --lines or --page, not both');
  if (lines !== undefined) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(lines);
    const from = Number(match?.[1]);
    const to = match?.[2] === undefined ? from : Number(match[2]);
    if (match === null || from < 1 || to < from) throw new UsageError(`--lines must be <a>-<b> with 1 <= a <= b`);
    return { tool: 'read_fd', args: { fd, mode: 'line', start: from, count: to - from + 1 } };
  }
  const start = page === undefined ? 1 : wholeNumber('--page', page, 1);
  return { tool: 'read_fd', args: { fd, mode: 'page', start } };
});

export const search = reading(SEARCH_HELP, { values: ['--context', '--max'], positionals: [2, 2] }, (options) => {
  const [fd, pattern] = options.positionals as [string, string];
  const context = options.values.get('--context');
  const max = options.values.get('--max');
  return {
    tool: 'search_fd',
    args: {
      fd,
      pattern,
      regex: true,
      case_sensitive: true,
      ...(context === undefined ? {} : { context: wholeNumber('--context', context, 0) }),
      ...(max === undefined ? {} : { max_results: wholeNumber('--max', max, 1) }),
    },
  };
});

export const tail = reading(TAIL_HELP, { positionals: [1, 2] }, (options) => {
  const [fd, count] = options.positionals as [string, string | undefined];
  return {
    tool: 'read_fd',
    args: { fd, mode: 'tail', ...(count === undefined ? {} : { count: wholeNumber('lines', count, 1) }) },
  };
});

export const list = reading(LIST_HELP, { positionals: [0, 0] }, () => ({ tool: 'list_fds', args: {} }));

/** `... | keep`: stdin into a new descriptor of the agent's session (streamed through a spool, as `run` does). */
export const keep: Subcommand = async (argv, io) => {
  let options: ParsedOptions;
  let folder: string;
  let previewChars: number;
  try {
    options = parseOptions(argv, { values: [...STORE_OPTIONS, '--preview-chars'], flags: [] });
    if (options.flags.has('--help')) {
      await writeOut(io.stdout, KEEP_HELP);
      return STATUS.ok;
    }
    if (options.positionals.length > 0 || options.rest !== undefined)
      throw new UsageError(`keep reads stdin and takes no arguments`);
    folder = storeFolder(options, io);
    const given = options.values.get('--preview-chars');
    previewChars =
      given === undefined ? DEFAULT_PREVIEW_CHARS : wholeNumber('--preview-chars', given, MIN_PREVIEW_CHARS);
  } catch (error) {
    return usage(io, error, KEEP_HELP);
  }
  const key = agentKey(options);
  let store: Store;
  let spool: OutputSpool;
  try {
    store = await Store.open(folder);
    spool = await OutputSpool.create(store);
  } catch (error) {
    return storeUnusable(io, folder, error);
  }
  try {
    const sink = spool.sink(store);
    const builder = new OutputPreviewBuilder(previewLimits(previewChars));
    const decoder = new StringDecoder('utf8');
    try {
      for await (const chunk of io.stdin) {
        const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
        builder.push(text);
        await sink.write(text);
      }
      const rest = decoder.end();
      builder.push(rest);
      await sink.write(rest);
    } catch (error) {
      await sink.abort();
      throw error;
    }
    const { ref } = await sink.seal();
    const kept = await keepInAgentSession(store, key, spool.folder, ref, { source: 'user_input' });
    const output = builder.finish();
    const handle = handleLine(kept, output, 'read from stdin');
    const preview = renderOutputPreview({ handle, hints: '', output }, previewChars);
    await writeOut(io.stdout, preview.endsWith('\n') ? preview : preview + '\n');
    return STATUS.ok;
  } catch (error) {
    return storeUnusable(io, folder, error);
  } finally {
    await spool.remove().catch(() => undefined);
  }
};

/** Opens the store and the session the options name (read-only), runs `task` on it; store failures are status 3. */
async function withSession(
  io: CliIo,
  options: ParsedOptions,
  task: (session: StoreToolSession) => Promise<number>,
): Promise<number> {
  let folder: string;
  let key;
  try {
    folder = storeFolder(options, io);
    key = agentKey(options);
  } catch (error) {
    return usage(io, error, '');
  }
  let store: Store;
  try {
    store = await Store.open(folder);
  } catch (error) {
    return storeUnusable(io, folder, error);
  }
  try {
    let meta: StoredSessionMeta | undefined;
    const wanted = options.values.get('--session');
    if (wanted !== undefined) {
      meta = SESSION_ID.test(wanted) ? await store.meta(wanted) : undefined;
      meta ??= resolveSessionArgument(
        wanted,
        (await store.list()).sessions,
        "The list sub-command of fdref lists a session; fdref's Sessions view lists them all.",
      );
    } else if (key.conversation !== undefined) {
      meta = await findAgentSession(store, key);
    } else {
      meta = (await store.list()).sessions.find((s) => s.origin.kind === 'agentShell' && s.origin.agent === key.agent);
    }
    if (meta === undefined) {
      await writeOut(io.stderr, `fdref: no session of ${key.productName} in ${store.root}; give --session <id|name>\n`);
      return STATUS.notFound;
    }
    const reader = await store.read(meta.id);
    if (reader === undefined) {
      await writeOut(io.stderr, `fdref: session ${meta.id} was just deleted\n`);
      return STATUS.notFound;
    }
    return await task(new StoreToolSession(reader));
  } catch (error) {
    if (error instanceof ToolError) {
      await writeOut(io.stderr, `fdref: ${error.message}\n`);
      return error.type === 'not_found' ? STATUS.notFound : STATUS.usage;
    }
    return storeUnusable(io, folder, error);
  }
}

async function usage(io: CliIo, error: unknown, help: string): Promise<number> {
  if (!(error instanceof UsageError)) throw error;
  const how = help.split('\n')[0] ?? '';
  await writeOut(io.stderr, `fdref: ${error.message}${how === '' || error.message.includes(how) ? '' : ` (${how})`}\n`);
  return STATUS.usage;
}

async function storeUnusable(io: CliIo, folder: string, error: unknown): Promise<number> {
  await writeOut(io.stderr, `fdref: the store ${folder} cannot be used: ${errorMessage(error).replace(/\s+/g, ' ')}\n`);
  return STATUS.storeUnusable;
}
