// `npm run test:ui`: the UI test (test/ui/) on every build in versions.mjs, one mocha run per build, each in its own
// process with its own VS Code (FDREF_UI_VSCODE=1.139.1 picks one build; FDREF_UI_GREP=<regex> picks areas or tests
// by title). The tests drive the workbench in Chromium as a person would, with fdref installed as a user's VS Code has
// it; test/ui/README.md says how they are laid out. Prints mocha's results per build; exits non-zero when a test fails.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VSCODE_BUILDS } from './versions.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wanted = process.env.FDREF_UI_VSCODE;
const builds = wanted ? VSCODE_BUILDS.filter((b) => b.vscode === wanted) : VSCODE_BUILDS;
if (builds.length === 0) {
  console.error(`FDREF_UI_VSCODE=${wanted} names no known build (${VSCODE_BUILDS.map((b) => b.vscode).join(', ')})`);
  process.exit(1);
}

let failed = false;
for (const build of builds) {
  const run = spawnSync(
    process.execPath,
    [path.join(repo, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--config', path.join('test', 'ui', '.mocharc.cjs')],
    { cwd: repo, stdio: 'inherit', env: { ...process.env, FDREF_UI_VSCODE: build.vscode } },
  );
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
