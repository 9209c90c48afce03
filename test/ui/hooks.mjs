// Mocha's root hooks for the UI test: VS Code starts once before the first area and stops after the last; after
// every test a PNG screenshot of the window goes to screenshots/<VS Code version>/NN-<test title>.png (git-ignored),
// and a failing test prints the workbench's last console errors.
import * as path from 'node:path';
import { app, launch, stop } from './app.mjs';

let shot = 0;

export const mochaHooks = {
  /** @this {import('mocha').Context} */
  async beforeAll() {
    this.timeout(0); // a fresh machine installs code-server first
    await launch();
  },
  /** @this {import('mocha').Context} */
  async afterAll() {
    this.timeout(60_000);
    await stop();
  },
  beforeEach() {
    app().consoleErrors.length = 0;
  },
  /** @this {import('mocha').Context} */
  async afterEach() {
    const test = this.currentTest;
    if (!test) return;
    const { page, screenshots, consoleErrors } = app();
    if (test.state === 'failed') for (const line of consoleErrors.slice(-15)) console.log(`      console: ${line}`);
    shot++;
    const name = test.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await page
      .screenshot({ path: path.join(screenshots, `${String(shot).padStart(2, '0')}-${name}.png`) })
      .catch(() => {});
  },
};
