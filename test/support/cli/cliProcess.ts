/**
 * Runs the built command-line tool (`dist/cli.js`, built once per test run from esbuild.js's own `cliBuild` into a
 * temporary folder, so the tests never run a stale file and never touch dist/) as an agent's shell tool does: a
 * shell runs `node cli.js ...`, its status, stdout and stderr are collected as bytes.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { shellQuote } from '../../../src/cli/options';

const ROOT = path.resolve(__dirname, '../../..');

let built: Promise<string> | undefined;
/** Builds the tool once per run; resolves to its path. */
export function buildCliBundle(): Promise<string> {
  built ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { cliBuild } = require(path.join(ROOT, 'esbuild.js')) as { cliBuild: import('esbuild').BuildOptions };
    const folder = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-cli-bundle-')));
    // Shared by every test file of the run, so removed only when the run ends.
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const outfile = path.join(folder, 'cli.js');
    await esbuild.build({ ...cliBuild, outfile, absWorkingDir: ROOT, logLevel: 'error', sourcemap: false });
    return outfile;
  })();
  return built;
}

export interface CliRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: Buffer;
}

export interface CliRunOptions {
  readonly cwd: string;
  readonly input?: string | Buffer;
  readonly env?: NodeJS.ProcessEnv;
  /** The shell that starts the tool, as an agent's shell tool would (default /bin/sh); `none`: Node starts it. */
  readonly via?: string;
  /** Shell words before `node cli.js ...` (e.g. `ulimit -f 1024; exec`). */
  readonly prefix?: string;
  /** Shell words after it (e.g. `; exit $?`, so that bash stays its parent instead of exec'ing it). */
  readonly suffix?: string;
}

/** A started run; `done` settles when it has exited. */
export interface StartedCli {
  readonly pid: number;
  readonly done: Promise<CliRun>;
}

export function startCli(cli: string, args: readonly string[], options: CliRunOptions): StartedCli {
  const line = `${options.prefix ?? ''} ${[process.execPath, cli, ...args].map(shellQuote).join(' ')}${options.suffix ?? ''}`;
  return options.via === 'none'
    ? collect(spawn(process.execPath, [cli, ...args], { cwd: options.cwd, env: cliEnv(options.env) }), options.input)
    : startShellLine(options.via ?? '/bin/sh', line, options);
}

/** Runs `<shell> -c <line>` as an agent's shell tool does (the tool's own line, or the hooks' front line). */
export function startShellLine(
  shell: string,
  line: string,
  options: Pick<CliRunOptions, 'cwd' | 'env' | 'input'>,
): StartedCli {
  return collect(spawn(shell, ['-c', line], { cwd: options.cwd, env: cliEnv(options.env) }), options.input);
}

/** The environment of a run: this one's, with no store of the user's (`FDREF_STORE`), and the run's own. */
function cliEnv(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  return { ...process.env, FDREF_STORE: '', ...env };
}

function collect(child: ChildProcessWithoutNullStreams, input: string | Buffer | undefined): StartedCli {
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.end(input ?? '');
  const done = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status, signal) =>
      resolve({ status, signal, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) }),
    );
  });
  return { pid: child.pid ?? 0, done };
}

export function runCli(cli: string, args: readonly string[], options: CliRunOptions): Promise<CliRun> {
  return startCli(cli, args, options).done;
}

/** Resolves once `check` holds, polling (the tests wait for conditions, never for a fixed time). */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
