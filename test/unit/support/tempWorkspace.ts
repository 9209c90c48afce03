import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** A fresh folder for one test, removed afterwards. */
export function tempWorkspace(): { root: string; file(relative: string): string; dispose(): void } {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-test-')));
  return {
    root,
    file: (relative) => path.join(root, relative),
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}
