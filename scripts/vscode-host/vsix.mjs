// Builds fdref.vsix exactly as `npm run package` does, but in a temporary copy of the sources, so dist/ of the
// checkout keeps the development build the other tests load (a production build there would replace it).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { tempFolder } from './host.mjs';

/** What `npm run package` reads: the build script and its inputs, the manifest, the files the VSIX holds. */
const PACKAGE_INPUTS = [
  'package.json',
  'esbuild.js',
  'tsconfig.json',
  '.vscodeignore',
  'README.md',
  'CHANGELOG.md',
  'LICENSE',
  'src',
  'media',
  'scripts/package-readme.mjs',
];

/**
 * Packages the checkout at `repo` in a temporary folder (removed at cleanup); returns the path of the .vsix.
 * @param {{ repo: string }} options
 */
export function packageVsix({ repo }) {
  const staging = tempFolder('fdref-package-');
  for (const input of PACKAGE_INPUTS) {
    mkdirSync(path.dirname(path.join(staging, input)), { recursive: true });
    cpSync(path.join(repo, input), path.join(staging, input), { recursive: true });
  }
  symlinkSync(path.join(repo, 'node_modules'), path.join(staging, 'node_modules'), 'dir');
  execFileSync('npm', ['run', '--silent', 'package'], {
    cwd: staging,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
  });
  return path.join(staging, 'fdref.vsix');
}
