import { spawn, type SpawnOptions } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { writeWorkspaceFile, type WriteMode } from '../../../src/core/files/workspaceWrite';
import { nodeFileSystem } from '../../../src/core/files/fileSystemPort';
import { ToolError } from '../../../src/core/toolError';

/** Writes one process makes, one after another, each with its own text. */
export interface WriteJob {
  readonly roots: readonly string[];
  readonly filePath: string;
  readonly mode: WriteMode;
  readonly line?: number;
  readonly texts: readonly string[];
}

/** What became of one write: acknowledged, or the error it reported. */
export type WriteOutcome =
  | { readonly text: string; readonly ok: true }
  | { readonly text: string; readonly ok: false; readonly type: string; readonly message: string };

/**
 * Runs `job` in a separate Node process (as another fdref, a CLI or an MCP server would) and reports each write.
 * As another user (`uid`), the worker runs from a bundle in a folder anyone may read: the clone may sit in one that
 * only its owner can enter (`mktemp -d` makes such folders), where that user could not load it.
 */
export function runWriteWorker(
  job: WriteJob,
  options: Pick<SpawnOptions, 'uid' | 'gid'> = {},
): Promise<WriteOutcome[]> {
  const program =
    options.uid === undefined ? ['--require', require.resolve('tsx/cjs'), __filename] : [bundleForAnyUser()];
  const child = spawn(process.execPath, [...program, JSON.stringify(job)], {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`write worker exited with ${code}: ${stderr}`));
      else
        resolve(
          stdout
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as WriteOutcome),
        );
    });
  });
}

let bundle: string | undefined;

/** This worker and what it imports as one script in a folder every user may read; made once, removed at exit. */
function bundleForAnyUser(): string {
  if (bundle !== undefined) return bundle;
  const folder = mkdtempSync(path.join(tmpdir(), 'fdref-write-worker-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  chmodSync(folder, 0o755);
  const outfile = path.join(folder, 'writeWorker.cjs');
  buildSync({
    entryPoints: [__filename],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  chmodSync(outfile, 0o644);
  return (bundle = outfile);
}

async function work(job: WriteJob): Promise<void> {
  for (const text of job.texts) {
    let outcome: WriteOutcome;
    try {
      await writeWorkspaceFile({
        filePath: job.filePath,
        text,
        mode: job.mode,
        line: job.line,
        roots: job.roots,
        fileSystem: nodeFileSystem,
        label: 'worker',
      });
      outcome = { text, ok: true };
    } catch (error) {
      if (!(error instanceof ToolError)) throw error;
      outcome = { text, ok: false, type: error.type, message: error.message };
    }
    process.stdout.write(JSON.stringify(outcome) + '\n');
  }
}

if (require.main === module) {
  work(JSON.parse(process.argv[2] ?? '{}') as WriteJob).catch((error: unknown) => {
    process.stderr.write(String(error instanceof Error ? error.stack : error));
    process.exit(1);
  });
}
