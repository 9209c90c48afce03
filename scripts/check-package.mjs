// CI check of the VSIX: `npm run package` must have built fdref.vsix, and the package must hold only what the
// extension needs at run time (the bundle, the chat webview's script and codicons, media, manifest, README, CHANGELOG, license).
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

// Paths inside the VSIX (a zip): the extension's files are under extension/.
const ALLOWED = [/^package\.json$/, /^dist\/extension\.js$/, /^dist\/webview\/(chat\.js|codicon\.(css|ttf))$/, /^media\/[^/]+\.(svg|png|css|js)$/, /^readme\.md$/i, /^changelog\.md$/i, /^LICENSE(\.txt)?$/];

if (!existsSync('fdref.vsix')) {
  console.error('fdref.vsix is missing: `npm run package` did not build it');
  process.exit(1);
}
const listing = execFileSync('python3', ['-c', 'import sys, zipfile; print("\\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))', 'fdref.vsix'], {
  encoding: 'utf8',
});
const files = listing
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line.startsWith('extension/'))
  .map((line) => line.slice('extension/'.length));
const unexpected = files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
const missing = ['package.json', 'dist/extension.js', 'dist/webview/chat.js', 'dist/webview/codicon.css', 'dist/webview/codicon.ttf', 'media/chat.css', 'readme.md', 'changelog.md'].filter((file) => !files.some((f) => f.toLowerCase() === file.toLowerCase()));
console.log(`fdref.vsix: ${(statSync('fdref.vsix').size / 1024).toFixed(0)} KiB, ${files.length} files: ${files.join(', ')}`);
if (unexpected.length > 0) console.error(`Not allowed in the package: ${unexpected.join(', ')}`);
if (missing.length > 0) console.error(`Missing from the package: ${missing.join(', ')}`);
if (unexpected.length > 0 || missing.length > 0) process.exit(1);
console.log('package contents ok');
