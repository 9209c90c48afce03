// ESLint (flat config): typescript-eslint's type-checked rules for the TypeScript, and the import rules that
// carry fdref's architecture (docs/ARCHITECTURE.md): the core imports neither `vscode` nor an adapter folder,
// each folder of the core imports only the layers below its own, the benchmarks import no adapter, and the
// webview imports only the core. Formatting is Prettier's job (eslint-config-prettier turns off the rules that
// would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import tseslint from 'typescript-eslint';

const SRC = path.join(import.meta.dirname, 'src');
const CORE = path.join(SRC, 'core');

/**
 * Everything under src/ but the core: the folders that talk to VS Code (or, `mcp`, to an MCP client), the
 * webview and the entry point. Read from the disk, so a new adapter folder is outside the core from its first file.
 */
const OUTSIDE_CORE = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.name !== 'core' && (entry.isDirectory() || entry.name.endsWith('.ts')))
  .map((entry) => entry.name.replace(/\.ts$/, ''));
const VSCODE = { name: 'vscode', message: 'Only the adapters talk to VS Code.' };

/**
 * The layering as `no-restricted-imports` rules. Imports are relative, so what `../chat` means depends on how deep
 * the importing file sits: each depth gets the pattern that reaches src/ from there (`../` times the depth).
 */
/**
 * @param {string[]} files
 * @param {number} depth
 * @param {string} forbidden
 * @param {string} message
 * @returns {import('eslint').Linter.Config}
 */
function layering(files, depth, forbidden, message) {
  const up = '\\.\\./'.repeat(depth);
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', { paths: [VSCODE], patterns: [{ regex: `^${up}${forbidden}`, message }] }],
    },
  };
}
const outsideCore = `(?:${OUTSIDE_CORE.join('|')})(?:/|\\.ts$|$)`;
const PURE = 'The core is pure: it imports no adapter and no webview code.';
/** How deep the core's files sit (src/core/x.ts is 1): one rule per depth, so none goes unchecked. */
const CORE_DEPTHS = Math.max(
  ...readdirSync(CORE, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(CORE, path.join(entry.parentPath, entry.name)).split(path.sep).length),
);

/**
 * The core's layers, lowest first: a folder of src/core (or a file at its top, named without `.ts`) imports only
 * the folders of the layers below its own, never one of its own layer or above. Written here once: the
 * `fdref/core-layers` rule below reads it, and test/unit/layers.test.ts checks that every folder of the core is
 * in it and that docs/ARCHITECTURE.md shows it as it is.
 */
export const CORE_LAYERS = [
  // The brand that makes `instanceof` hold across bundles (the errors use it).
  ['brand'],
  // What everything stands on; none of these imports anything of the core but the brand. `workers`: a run of a
  // worker thread (query_fd's jq, diff_fd's diff).
  ['errors', 'ids', 'quantities', 'surrogates', 'workers', 'xml'],
  // Text and what the core keeps: content and descriptors, the diff of two texts, Structs entities, processes,
  // input quoted short.
  ['descriptors', 'diff', 'entities', 'process', 'quoteInput'],
  // What is read out of text: refs, terminal output; and the tools' error.
  ['refs', 'terminal', 'toolError'],
  ['files', 'presentation'],
  ['agents', 'tools'],
  ['session'],
  // A session's two users: the chat loop, and the store that keeps sessions on disk.
  ['chat', 'store'],
  // Each domain's settings, over the domains they configure; the search across the store, over the store and tools.
  ['search', 'settings'],
  // The public surface of dist/core.js.
  ['index'],
];
const CORE_LAYER = new Map(CORE_LAYERS.flatMap((units, layer) => units.map((unit) => [unit, layer])));

/**
 * `x` for a file of src/core (`x` its folder, or the file itself at the top), else undefined.
 * @param {string} file
 * @returns {string | undefined}
 */
function coreUnit(file) {
  const relative = path.relative(CORE, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep)[0]?.replace(/\.[cm]?[jt]s$/, '');
}

/**
 * `fdref/core-layers`: what CORE_LAYERS allows, checked on every relative import of a core file (static, type-only,
 * re-exports, `import()`, `import('…')` types and `require`), whatever its depth.
 * @type {import('eslint').Rule.RuleModule}
 */
const coreLayers = {
  meta: { type: 'problem', docs: { description: 'Each folder of the core imports only the layers below its own.' } },
  create(context) {
    const from = coreUnit(context.filename);
    if (from === undefined) return {};
    /** @param {import('estree').Node} node @param {unknown} specifier */
    const check = (node, specifier) => {
      if (typeof specifier !== 'string' || !specifier.startsWith('.')) return;
      const to = coreUnit(path.resolve(path.dirname(context.filename), specifier));
      if (to === undefined || to === from) return;
      const [fromLayer, toLayer] = [CORE_LAYER.get(from), CORE_LAYER.get(to)];
      if (fromLayer === undefined || toLayer === undefined) {
        const unplaced = fromLayer === undefined ? from : to;
        context.report({
          node,
          message: `core/${unplaced} is in no layer: place it in CORE_LAYERS (eslint.config.mjs).`,
        });
      } else if (toLayer >= fromLayer) {
        context.report({
          node,
          message:
            `core/${from} (layer ${fromLayer}) may not import core/${to} (layer ${toLayer}): a folder of the core ` +
            'imports only the layers below its own (CORE_LAYERS in eslint.config.mjs).',
        });
      }
    };
    /** @param {import('estree').Node & { source?: import('estree').Node | null }} node */
    const fromSource = (node) => check(node, node.source?.type === 'Literal' ? node.source.value : undefined);
    return {
      ImportDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ImportExpression: fromSource,
      /** @param {import('estree').Node & { argument?: { literal?: { value?: unknown } } }} node */
      TSImportType: (node) => check(node, node.argument?.literal?.value),
      CallExpression: (node) => {
        const [first] = node.arguments;
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && first?.type === 'Literal')
          check(node, first.value);
      },
    };
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'media/**', 'demo/**'] },
  js.configs.recommended,
  // fdref strips and escapes control characters from untrusted text on purpose; matching them is the point.
  { rules: { 'no-control-regex': 'off' } },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // The extension host must never drop a rejected promise on the floor.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // An aborted wait rejects with the signal's own reason, whatever its type, as fetch and timers/promises do.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Methods that implement an async interface (ports, test doubles) need not await anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests take apart JSON bodies and recorded streams whose shape is what they assert; `any` there is the point.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }] },
  },
  {
    // The webview tests run under mocha in Node and send functions into Chromium pages (page.evaluate).
    files: ['test/webview/**/*.mjs', 'bench/webview.mjs', 'test/ui/**/*.mjs', 'scripts/vscode-host/vsix-test.mjs'],
    languageOptions: { globals: { ...globals.mocha, ...globals.browser } },
  },
  {
    files: ['esbuild.js', 'test/ui/.mocharc.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  ...Array.from({ length: CORE_DEPTHS }, (_, i) =>
    layering([`src/core/${'*/'.repeat(i)}*.ts`], i + 1, outsideCore, PURE),
  ),
  {
    files: ['src/core/**/*.ts'],
    plugins: { fdref: { rules: { 'core-layers': coreLayers } } },
    rules: { 'fdref/core-layers': 'error' },
  },
  layering(
    ['src/webview/*.ts'],
    1,
    '(?!core(?:/|$))',
    'The webview runs in a browser frame: it imports only the core.',
  ),
  layering(['bench/*'], 1, 'src/(?!core(?:/|$))', 'Benchmarks measure the core, not the adapters.'),
  prettier,
);
