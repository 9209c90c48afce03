// ESLint (flat config): typescript-eslint's type-checked rules for the TypeScript, and the import rules that
// carry fdref's architecture (docs/ARCHITECTURE.md): the core imports neither `vscode` nor an adapter folder,
// the benchmarks import no adapter, and the webview imports only the core. Formatting is Prettier's job
// (eslint-config-prettier turns off the rules that would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The folders under src/ that talk to VS Code, and the entry point. */
const ADAPTERS = [
  'chat',
  'commands',
  'common',
  'entities',
  'files',
  'hover',
  'mcp',
  'sessions',
  'tree',
  'workspace',
  'extension',
];
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
const adapterOrWebview = `(?:${[...ADAPTERS, 'webview'].join('|')})(?:/|\\.ts$|$)`;
const CORE = 'The core is pure: it imports no adapter and no webview code.';

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
  layering(['src/core/*.ts'], 1, adapterOrWebview, CORE),
  layering(['src/core/*/*.ts'], 2, adapterOrWebview, CORE),
  layering(['src/core/*/*/*.ts'], 3, adapterOrWebview, CORE),
  layering(
    ['src/webview/*.ts'],
    1,
    '(?!core(?:/|$))',
    'The webview runs in a browser frame: it imports only the core.',
  ),
  layering(['bench/*'], 1, 'src/(?!core(?:/|$))', 'Benchmarks measure the core, not the adapters.'),
  prettier,
);
