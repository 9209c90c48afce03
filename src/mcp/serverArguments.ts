/**
 * The MCP server's command line: `--store <folder> --workspace <folder> [--workspace <folder> ...] [--read-only]
 * [--result-chars <n>]`.
 * Every mistake is a `UsageError` whose message says what is wrong and shows the usage.
 */
import { statSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_RESULT_CHARS, MIN_RESULT_CHARS } from '../core/agents/clientBudgets';
import { errorMessage } from '../core/errors';
import { DEFAULT_COMMAND_WAIT_S } from '../core/tools/commandJobs';

export const USAGE = [
  'Usage: node mcp.js --store <folder> --workspace <folder> [--workspace <folder> ...] [--read-only]',
  '                   [--result-chars <n>] [--command-wait <seconds>]',
  '',
  '  --store <folder>      the fdref session store (created when missing); VS Code uses',
  '                        <its global storage>/store/<workspace key>',
  '  --workspace <folder>  a folder run_command may run in and fd_to_file may write in (at least one)',
  '  --read-only           refuse fd_to_file and run_command (they are not offered)',
  `  --result-chars <n>    the most characters one tool result holds (${MIN_RESULT_CHARS}-${MAX_RESULT_CHARS}); a longer`,
  "                        one is stored as an fd: and previewed. Default: by the client's name (docs/MCP.md)",
  `  --command-wait <s>    how long a call waits for a command before answering with its output so far, which`,
  `                        keeps growing (default ${DEFAULT_COMMAND_WAIT_S}: clients give up on a call after 60 s)`,
].join('\n');

export interface ServerArguments {
  /** Absolute. */
  readonly store: string;
  /** Absolute, existing folders; the first is where relative paths and commands start. */
  readonly workspaces: readonly string[];
  readonly readOnly: boolean;
  /** `--result-chars`: the most characters one tool result holds; undefined to choose it by the client's name. */
  readonly resultChars?: number;
  /** Seconds a call waits for a command before answering with a growing descriptor. */
  readonly commandWaitS: number;
}

export class UsageError extends Error {
  constructor(problem: string) {
    super(`${problem}\n\n${USAGE}`);
    this.name = 'UsageError';
  }
}

/** Reads the arguments (`process.argv.slice(2)`); relative folders resolve against `cwd`. */
export function parseServerArguments(argv: readonly string[], cwd = process.cwd()): ServerArguments {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        store: { type: 'string' },
        workspace: { type: 'string', multiple: true },
        'read-only': { type: 'boolean' },
        'result-chars': { type: 'string' },
        'command-wait': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(errorMessage(error));
  }
  if (values.store === undefined || values.store === '') throw new UsageError('--store <folder> is required.');
  const workspaces = values.workspace ?? [];
  if (workspaces.length === 0) throw new UsageError('At least one --workspace <folder> is required.');
  const store = path.resolve(cwd, values.store);
  const resolved = workspaces.map((folder) => {
    if (folder === '') throw new UsageError('--workspace needs a folder.');
    const absolute = path.resolve(cwd, folder);
    let isFolder: boolean;
    try {
      isFolder = statSync(absolute).isDirectory();
    } catch (error) {
      throw new UsageError(`--workspace ${absolute} cannot be used: ${errorMessage(error)}`);
    }
    if (!isFolder) throw new UsageError(`--workspace ${absolute} is not a folder.`);
    return absolute;
  });
  const resultChars = values['result-chars'] === undefined ? undefined : parseResultChars(values['result-chars']);
  const wait = values['command-wait'];
  const commandWaitS = wait === undefined ? DEFAULT_COMMAND_WAIT_S : Number(wait);
  if (wait !== undefined && (!/^\s*\d+(\.\d+)?\s*$/.test(wait) || commandWaitS <= 0 || commandWaitS > 3600))
    throw new UsageError(`--command-wait must be a number of seconds, more than 0 and at most 3600 (got ${wait}).`);
  return {
    store,
    workspaces: [...new Set(resolved)],
    readOnly: values['read-only'] ?? false,
    commandWaitS,
    ...(resultChars === undefined ? {} : { resultChars }),
  };
}

function parseResultChars(value: string): number {
  const chars = /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!(chars >= MIN_RESULT_CHARS && chars <= MAX_RESULT_CHARS))
    throw new UsageError(
      `--result-chars needs a whole number from ${MIN_RESULT_CHARS} to ${MAX_RESULT_CHARS} (got "${value.slice(0, 40)}").`,
    );
  return chars;
}
