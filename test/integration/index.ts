// Entry point the VS Code extension host loads (`extensionTestsPath`): runs every bundled
// `*.test.js` beside this file with mocha and resolves when they pass, rejects when any fails.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
  // FDREF_TEST_GREP (set by the runner for a pass, passed on by the server) picks the tests by title.
  const grep = process.env['FDREF_TEST_GREP'];
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  for (const file of fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration test(s) failed`)) : resolve()));
  });
}
