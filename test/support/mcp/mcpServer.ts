/**
 * Drives the built `dist/mcp.js` over stdio with the official SDK client, as Claude Code or Cursor would: the
 * bundle is built once per run from esbuild.js's own `mcpBuild`, so the tests never run a stale file.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ROOT = path.resolve(__dirname, '../../..');
export const MCP_BUNDLE = path.join(ROOT, 'dist/mcp.js');

let built: Promise<void> | undefined;
/** Builds dist/mcp.js and the workers (and libsql's native part) it loads from beside itself (once per test run). */
export function buildMcpBundle(): Promise<void> {
  built ??= (async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { mcpBuild, jqWorkerBuild, diffWorkerBuild, searchWorkerBuild, copyLibsqlNative } = require(
      path.join(ROOT, 'esbuild.js'),
    ) as {
      mcpBuild: import('esbuild').BuildOptions;
      jqWorkerBuild: import('esbuild').BuildOptions;
      diffWorkerBuild: import('esbuild').BuildOptions;
      searchWorkerBuild: import('esbuild').BuildOptions;
      copyLibsqlNative: () => void;
    };
    copyLibsqlNative();
    await Promise.all(
      [mcpBuild, jqWorkerBuild, diffWorkerBuild, searchWorkerBuild].map((build) =>
        esbuild.build({ ...build, absWorkingDir: ROOT, logLevel: 'error' }),
      ),
    );
  })();
  return built;
}

/** A temporary store and workspace folder, removed by `dispose()`. */
export interface McpFolders {
  readonly root: string;
  readonly store: string;
  readonly workspace: string;
  dispose(): void;
}

export function mcpFolders(): McpFolders {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-mcp-')));
  mkdirSync(path.join(root, 'workspace'));
  return {
    root,
    store: path.join(root, 'store'),
    workspace: path.join(root, 'workspace'),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

export interface ConnectOptions {
  readonly store: string;
  readonly workspaces: readonly string[];
  readonly readOnly?: boolean;
  /** `--result-chars`. */
  readonly resultChars?: number;
  /** The client's name, which names its session. */
  readonly name?: string;
  /**
   * Folders the client offers as MCP roots (the roots capability is declared when given); `'unanswered'`: the
   * client declares the capability and never answers `roots/list`.
   */
  readonly roots?: readonly string[] | 'unanswered';
  /** More command-line arguments (e.g. `--command-wait 1`). */
  readonly extraArgs?: readonly string[];
  /** The server's script: default dist/mcp.js (a launcher copy agents run, e.g. `fdref-mcp.js`, elsewhere). */
  readonly bundle?: string;
}

export interface Connected {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** The server's pid. */
  readonly pid: number;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** Settles when the server's process has ended and its output is read (the client's transport closed). */
  readonly ended: Promise<void>;
  close(): Promise<void>;
}

/** Starts `node dist/mcp.js` with these arguments and connects the SDK client to it. */
export async function connectMcp(options: ConnectOptions): Promise<Connected> {
  await buildMcpBundle();
  const args = [options.bundle ?? MCP_BUNDLE, '--store', options.store];
  for (const folder of options.workspaces) args.push('--workspace', folder);
  if (options.readOnly === true) args.push('--read-only');
  if (options.resultChars !== undefined) args.push('--result-chars', String(options.resultChars));
  args.push(...(options.extraArgs ?? []));
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client(
    { name: options.name ?? 'mcp-test', version: '1.0.0' },
    options.roots === undefined ? {} : { capabilities: { roots: { listChanged: true } } },
  );
  const roots = options.roots;
  if (roots === 'unanswered') client.setRequestHandler('roots/list', () => new Promise<never>(() => undefined));
  else if (roots !== undefined) {
    client.setRequestHandler('roots/list', () => ({
      roots: roots.map((folder) => ({ uri: pathToFileURL(folder).href, name: path.basename(folder) })),
    }));
  }
  const ended = new Promise<void>((resolve) => (client.onclose = resolve));
  await client.connect(transport);
  const pid = transport.pid;
  assert.ok(pid !== null && pid !== undefined, 'the server has no pid');
  return { client, transport, pid, stderr: () => stderr, ended, close: () => client.close() };
}

/** The text of a tool result (its first content block). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  assert.ok(first?.type === 'text', `the result has no text: ${JSON.stringify(result).slice(0, 300)}`);
  return first.text;
}

/** Calls a tool, expecting success; returns its text. */
export async function callOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name} failed: ${textOf(result)}`);
  return textOf(result);
}

/** Calls a tool, expecting an `isError` result; returns its text. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} should have failed: ${textOf(result).slice(0, 300)}`);
  return textOf(result);
}

/** The value of attribute `name` of the first element that has it. */
export function attribute(xml: string, name: string): string {
  const match = new RegExp(`\\b${name}="([^"]*)"`).exec(xml);
  assert.ok(match, `no ${name}="..." in ${xml.slice(0, 300)}`);
  return match[1] as string;
}
