// `npm run test:desktop`: the same integration suite on desktop VS Code through @vscode/test-electron, which
// downloads VS Code from Microsoft's update server (so it needs that network; CI here cannot reach it).
// FDREF_DESKTOP_VERSION picks the version (default: the oldest we support, then 'stable').
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const versions = process.env.FDREF_DESKTOP_VERSION ? [process.env.FDREF_DESKTOP_VERSION] : ['1.100.3', 'stable'];

let failed = false;
for (const version of versions) {
  const workspace = mkdtempSync(path.join(tmpdir(), 'fdref-desktop-'));
  cpSync(path.join(repo, 'test', 'fixtures', 'workspace'), workspace, { recursive: true });
  try {
    console.log(`\n== Integration tests on desktop VS Code ${version}`);
    await runTests({
      version,
      // The test-only language model provider needs VS Code 1.104 or later (its tests skip before that).
      extensionDevelopmentPath:
        version === '1.100.3' ? repo : [repo, path.join(repo, 'test', 'fixtures', 'lm-extension')],
      extensionTestsPath: path.join(repo, 'out', 'test', 'integration', 'index.js'),
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
    });
  } catch (error) {
    console.error(`Desktop VS Code ${version}: ${error instanceof Error ? error.message : error}`);
    failed = true;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
