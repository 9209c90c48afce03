// `npm run test:webview`: the chat webview's tests (test/webview/*.test.mjs) with mocha, in the Chromium the
// integration tests use (installed here on a fresh machine). They bundle the webview from src/, so no build is needed.
// Arguments go to mocha's grep: `npm run test:webview -- "safety"`.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';
import { ensureDebianPackages } from './vscode-host/install.mjs';

const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'webview');

ensureDebianPackages();
const grep = process.argv[2];
const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', timeout: 60_000, ...(grep ? { grep } : {}) });
for (const file of readdirSync(folder)
  .filter((f) => f.endsWith('.test.mjs'))
  .sort())
  mocha.addFile(path.join(folder, file));
await mocha.loadFilesAsync();
mocha.run((failures) => {
  process.exitCode = failures > 0 ? 1 : 0;
});
