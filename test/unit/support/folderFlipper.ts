import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { restoreFolder, swapFolderForLink } from './folderSwap';

/** What a folder flipper did: how many times it swapped the folder for a link, and the names it moved (see `restoreFolder`). */
export interface FlipReport {
  readonly flips: number;
  readonly moved: readonly string[];
}

/**
 * Another process that flips `folder` between the real folder and a symbolic link to `outside`, as fast as
 * it can, until stopped. `stop()` leaves the real folder in place and reports.
 */
export async function startFolderFlipper(folder: string, outside: string): Promise<{ stop(): Promise<FlipReport> }> {
  const stopFile = path.join(tmpdir(), `fdref-stop-flipping-${randomBytes(6).toString('hex')}`);
  const child = spawn(
    process.execPath,
    ['--require', require.resolve('tsx/cjs'), __filename, folder, outside, stopFile],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the folder flipper exited early (${code})`)));
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('flipping\n')) resolve();
    });
  });
  return {
    async stop() {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      writeFileSync(stopFile, '');
      const code = await exited;
      rmSync(stopFile, { force: true });
      if (code !== 0) throw new Error(`the folder flipper failed (${code})`);
      const report = output.split('\n').find((line) => line.startsWith('{'));
      if (report === undefined) throw new Error(`the folder flipper did not report: ${output}`);
      return JSON.parse(report) as FlipReport;
    },
  };
}

function flipUntilStopped(folder: string, outside: string, stopFile: string): void {
  process.stdout.write('flipping\n');
  let flips = 0;
  const moved: string[] = [];
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (!existsSync(stopFile)) {
    try {
      swapFolderForLink(folder, outside);
      flips++;
    } catch {
      // A writer got in between (for example it recreated the folder while it was missing); tidy up below.
    }
    try {
      restoreFolder(folder, moved);
    } catch {
      // Still busy; the next round tries again.
    }
    // Stay a real folder a little longer than a link, so that writes get past the first check.
    Atomics.wait(pause, 0, 0, 0.3);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      restoreFolder(folder, moved);
      break;
    } catch (error) {
      if (attempt > 100) throw error;
    }
  }
  process.stdout.write(JSON.stringify({ flips, moved } satisfies FlipReport) + '\n');
}

if (require.main === module) {
  const [folder, outside, stopFile] = process.argv.slice(2).map((arg) => path.resolve(arg));
  if (folder === undefined || outside === undefined || stopFile === undefined)
    throw new Error('usage: folderFlipper folder outside stopFile');
  flipUntilStopped(folder, outside, stopFile);
}
