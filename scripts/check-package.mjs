// CI check of the VSIX: `npm run package` must have built fdref.vsix, and the package must hold only what the
// extension needs at run time (the bundle, the window's objects it loads on first use, the chat's code it loads when a chat is first shown, the provider SDKs a
// chat loads when it needs one, the MCP server other agents start, the command-line tool their hooks run commands through, the chat webview's script and codicons, media,
// manifest, README, CHANGELOG, license), with the bundle VS Code loads at activation under its size limit.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';

/** @type {typeof import('../esbuild.js')} */
const { ACTIVATION_BUNDLE_LIMIT } = createRequire(import.meta.url)('../esbuild.js');

// Paths inside the VSIX (a zip): the extension's files are under extension/.
const ALLOWED = [
  /^package\.json$/,
  /^dist\/(extension|window|chat)\.js$/,
  /^dist\/(mcp|cli|agentConfigMerge|jqWorker|diffWorker|searchWorker)\.js$/,
  /^dist\/native\/libsql-[a-z0-9-]+\.node$/,
  /^dist\/vendor\/(anthropic|openai|jsonc-parser)\.js$/,
  /^dist\/webview\/(chat\.js|codicon\.(css|ttf))$/,
  /^media\/[^/]+\.(svg|png|css|js)$/,
  /^readme\.md$/i,
  /^changelog\.md$/i,
  /^LICENSE(\.txt)?$/,
];

if (!existsSync('fdref.vsix')) {
  console.error('fdref.vsix is missing: `npm run package` did not build it');
  process.exit(1);
}
// One line per file: its path, a tab, its size in bytes.
const listing = execFileSync(
  'python3',
  [
    '-c',
    'import sys, zipfile; print("\\n".join(f"{i.filename}\\t{i.file_size}" for i in zipfile.ZipFile(sys.argv[1]).infolist()))',
    'fdref.vsix',
  ],
  {
    encoding: 'utf8',
  },
);
const sizes = new Map(
  listing
    .split('\n')
    .map((line) => line.trim().split('\t'))
    .filter(([name]) => name.startsWith('extension/'))
    .map(([name, size]) => [name.slice('extension/'.length), Number(size)]),
);
const files = [...sizes.keys()];
const unexpected = files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
const missing = [
  'package.json',
  'dist/extension.js',
  'dist/window.js',
  'dist/chat.js',
  'dist/mcp.js',
  'dist/cli.js',
  'dist/agentConfigMerge.js',
  'dist/jqWorker.js',
  'dist/diffWorker.js',
  'dist/searchWorker.js',
  'dist/vendor/anthropic.js',
  'dist/vendor/openai.js',
  'dist/vendor/jsonc-parser.js',
  'dist/webview/chat.js',
  'dist/webview/codicon.css',
  'dist/webview/codicon.ttf',
  'media/chat.css',
  'readme.md',
  'changelog.md',
].filter((file) => !files.some((f) => f.toLowerCase() === file.toLowerCase()));
console.log(
  `fdref.vsix: ${(statSync('fdref.vsix').size / 1024).toFixed(0)} KiB, ${files.length} files: ${files.join(', ')}`,
);
if (unexpected.length > 0) console.error(`Not allowed in the package: ${unexpected.join(', ')}`);
if (missing.length > 0) console.error(`Missing from the package: ${missing.join(', ')}`);
const activation = sizes.get('dist/extension.js') ?? 0;
const tooLarge = activation >= ACTIVATION_BUNDLE_LIMIT;
console.log(`dist/extension.js, loaded at activation: ${activation} bytes (limit ${ACTIVATION_BUNDLE_LIMIT})`);
if (tooLarge)
  console.error(
    'The bundle VS Code loads at activation is over its limit: see `npm run bench`, which lists what it holds.',
  );
if (unexpected.length > 0 || missing.length > 0 || tooLarge) process.exit(1);
console.log('package contents ok');
