/**
 * What every sub-command shares: where the store is (`--store`, else `FDREF_STORE`), which agent and conversation
 * a session belongs to, the command line that runs this tool (for the hints a preview prints), and the exit
 * statuses of the sub-commands other than `run`.
 */
import * as path from 'node:path';
import { isWrapperAgent, WRAPPER_AGENTS, type WrapperAgentId } from '../core/agents/wrapperAgents';
import type { AgentSessionKey } from '../core/store/agentSession';
import type { CliIo } from './subcommand';
import { shellQuote, UsageError, type ParsedOptions } from './options';

/** Exit statuses of `read`, `search`, `tail`, `list` and `keep` (see the issue 24 contract). */
export const STATUS = { ok: 0, notFound: 1, usage: 2, storeUnusable: 3 } as const;

/** The options every sub-command reading or writing the store takes. */
export const STORE_OPTIONS = ['--store', '--agent', '--conversation'] as const;

/** The store folder, absolute: `--store`, else `FDREF_STORE`; a usage error when neither is given. */
export function storeFolder(options: ParsedOptions, io: CliIo): string {
  const folder = options.values.get('--store') ?? io.env['FDREF_STORE'];
  if (folder === undefined || folder === '') throw new UsageError('no store: give --store <folder> or set FDREF_STORE');
  return path.resolve(io.cwd, folder);
}

export const MAX_CONVERSATION_CHARS = 256;

/** The agent (`--agent`, default `terminal`: a person) and its conversation, as a session key. */
export function agentKey(options: ParsedOptions): AgentSessionKey & { agent: WrapperAgentId } {
  const agent = options.values.get('--agent') ?? 'terminal';
  if (!isWrapperAgent(agent))
    throw new UsageError(
      `unknown agent ${JSON.stringify(agent.slice(0, 40))}; one of ${Object.keys(WRAPPER_AGENTS).join(', ')}`,
    );
  const conversation = options.values.get('--conversation');
  // It is kept in the session's metadata: an id, not a text (agents' ids are UUIDs or shorter).
  if (conversation !== undefined && conversation.length > MAX_CONVERSATION_CHARS)
    throw new UsageError(`--conversation is ${conversation.length} characters, more than ${MAX_CONVERSATION_CHARS}`);
  return {
    agent,
    productName: WRAPPER_AGENTS[agent],
    ...(conversation === undefined || conversation === '' ? {} : { conversation }),
  };
}

/**
 * The command line that runs this tool, for the command lines a preview suggests: `FDREF_CLI` when set (a
 * launcher that knows better), else this Node and this script, quoted.
 */
export function selfCommand(env: NodeJS.ProcessEnv): string {
  const given = env['FDREF_CLI'];
  if (given !== undefined && given !== '') return given;
  return `${shellQuote(process.execPath)} ${shellQuote(process.argv[1] ?? 'cli.js')}`;
}

/** Writes `data` and resolves once the stream took it (so a large output is never queued whole in memory). */
export function writeOut(stream: NodeJS.WritableStream, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(data, (error) => (error ? reject(error) : resolve()));
  });
}
