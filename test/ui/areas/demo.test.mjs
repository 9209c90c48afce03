// `npm start`: its demo profile is temporary, and Ctrl+C removes it. Starts its own VS Code server.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { build, repo } from '../app.mjs';
import { waitUntil } from '../pages/waits.mjs';

/**
 * Runs `npm start`'s script for the build under test until it prints its URL, checks the temporary profile it names
 * exists, then sends SIGINT (what Ctrl+C sends) and returns what it printed after.
 * @returns {Promise<{ profile: string, stopped: string }>}
 */
async function startAndStopDemo() {
  const child = spawn(process.execPath, [path.join(repo, 'scripts', 'vscode-host', 'start.mjs')], {
    env: { ...process.env, FDREF_VSCODE: build.vscode },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await waitUntil(
      () => {
        if (child.exitCode !== null) throw new Error(`npm start did not come up: ${output.slice(-300)}`);
        return output.includes('Press Ctrl+C to stop');
      },
      () => `npm start did not come up: ${output.slice(-300)}`,
      120_000,
    );
    const profile = /are in (\S+) and are removed when you stop/.exec(output)?.[1];
    if (!profile) throw new Error(`npm start does not say where its temporary profile is: ${output.slice(-400)}`);
    if (!existsSync(path.join(profile, 'user-data'))) throw new Error(`${profile} has no VS Code profile`);
    const before = output.length;
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
    return { profile, stopped: output.slice(before) };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

describe('demo', function () {
  it('npm start says its demo profile is temporary, and on Ctrl+C removes it and says so', async function () {
    const { profile, stopped } = await startAndStopDemo();
    if (existsSync(profile)) throw new Error(`${profile} is still there after Ctrl+C`);
    if (!stopped.includes(`The fdref demo has stopped; ${profile} was removed`))
      throw new Error(`no stopped line in: ${stopped.slice(-300)}`);
  });
});
