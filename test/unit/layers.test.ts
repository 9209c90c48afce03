/**
 * The layering the machines keep (docs/ARCHITECTURE.md, "Layers"): ESLint keeps every folder outside the core out
 * of it and the core's own layers in order (`eslint.config.mjs`), and no file of src/ is in an import cycle.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ESLint } from 'eslint';
import { cycles, fromRoot, importGraph, root, srcRoot } from './support/importGraph';

const LAYER_RULES = new Set(['no-restricted-imports', 'fdref/core-layers']);

/** The import rules' messages for `code` as the file at `file` (a path from the repository root). */
async function layerProblems(eslint: ESLint, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((message) => LAYER_RULES.has(message.ruleId ?? ''))
    .map((message) => `${message.ruleId}: ${message.message}`);
}

/** The import rules' messages for `specifier` imported (`import type`) by the file at `file`. */
function importProblems(eslint: ESLint, file: string, specifier: string): Promise<string[]> {
  return layerProblems(eslint, file, `import type { X } from '${specifier}';\nexport type Y = X;\n`);
}

/** What eslint.config.mjs exports beside the config: the core's layers. */
async function coreLayers(): Promise<string[][]> {
  const config = (await import(pathToFileURL(path.join(root, 'eslint.config.mjs')).href)) as {
    CORE_LAYERS: string[][];
  };
  return config.CORE_LAYERS;
}

describe('layers', function () {
  this.timeout(120_000);
  let eslint: ESLint;
  before(async () => {
    const { ESLint } = await import('eslint');
    // Only the import rules, without type information: the type-checked rules would cost a program's build and
    // say nothing about layering.
    eslint = new ESLint({
      cwd: root,
      ruleFilter: ({ ruleId }) => LAYER_RULES.has(ruleId),
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    });
  });

  it('has ESLint refuse, in the core, an import of every folder and file of src/ outside it, at every depth', async () => {
    const outside = readdirSync(srcRoot).filter((name) => name !== 'core');
    assert.ok(outside.includes('terminal') && outside.includes('lmTools') && outside.includes('participant'));
    const allowed: string[] = [];
    for (const name of outside) {
      const target = name.replace(/\.ts$/, '');
      for (const [file, up] of [
        ['src/core/ids.ts', '../'],
        ['src/core/refs/tag.ts', '../../'],
        ['src/core/chat/providers/sdks.ts', '../../../'],
      ] as const) {
        const specifier = `${up}${target}${target === name ? '/x' : ''}`;
        const problems = await importProblems(eslint, file, specifier);
        if (!problems.some((problem) => problem.startsWith('no-restricted-imports:')))
          allowed.push(`${file}: ${specifier}`);
      }
    }
    assert.deepEqual(allowed, []);
    // The case that passed lint when the list of adapters was written by hand.
    assert.match(
      (await importProblems(eslint, 'src/core/refs/tag.ts', '../../terminal/terminalCapture')).join('\n'),
      /The core is pure/,
    );
  });

  it('has ESLint refuse an import of the core upward or across its own layer, type-only imports included', async () => {
    assert.deepEqual(await importProblems(eslint, 'src/core/refs/tag.ts', '../chat/protocol'), [
      'fdref/core-layers: core/refs (layer 3) may not import core/chat (layer 7): a folder of the core imports only the layers below its own (CORE_LAYERS in eslint.config.mjs).',
    ]);
    assert.match(
      (await importProblems(eslint, 'src/core/chat/providers/sdks.ts', '../../settings/chatSettings')).join(),
      /core\/chat \(layer 7\) may not import core\/settings \(layer 8\)/,
    );
    assert.match(
      (await importProblems(eslint, 'src/core/store/store.ts', '../chat/protocol')).join(),
      /core\/store \(layer 7\) may not import core\/chat \(layer 7\)/,
    );
    assert.match((await importProblems(eslint, 'src/core/ids.ts', './errors')).join(), /core\/ids .* core\/errors/);
    assert.match(
      (await importProblems(eslint, 'src/core/tools/readFd.ts', '../somethingNew/x')).join(),
      /core\/somethingNew is in no layer/,
    );
    // Every form of import is seen: a re-export, `import()`, an `import('…')` type, `require`.
    for (const code of [
      "export { x } from '../chat/protocol';",
      "export const x = import('../chat/protocol');",
      "export type X = import('../chat/protocol').X;",
      "export const x: unknown = require('../chat/protocol');",
    ])
      assert.match(
        (await layerProblems(eslint, 'src/core/refs/tag.ts', code)).join(),
        /core\/refs .* core\/chat/,
        code,
      );
    // Downward, and within one folder, stays allowed.
    assert.deepEqual(await importProblems(eslint, 'src/core/chat/conversation.ts', '../refs/tag'), []);
    assert.deepEqual(await importProblems(eslint, 'src/core/chat/providers/sdks.ts', '../../ids'), []);
    assert.deepEqual(await importProblems(eslint, 'src/core/chat/providers/sdks.ts', '../toolNames'), []);
    assert.deepEqual(await importProblems(eslint, 'src/core/index.ts', './settings/chatSettings'), []);
  });

  it('places every folder and top-level file of the core in exactly one layer', async () => {
    const placed = (await coreLayers()).flat();
    assert.deepEqual(placed, [...new Set(placed)], 'in two layers');
    const units = readdirSync(path.join(srcRoot, 'core')).map((name) => name.replace(/\.ts$/, ''));
    assert.deepEqual([...placed].sort(), units.sort());
  });

  it('shows the layers in docs/ARCHITECTURE.md as eslint.config.mjs has them', async () => {
    const doc = readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
    const section = /^## Layers\n([\s\S]*?)^## /m.exec(doc)?.[1] ?? '';
    const rows = [...section.matchAll(/^\| (\d+) \|([^|]+)\|/gm)].map((row) => ({
      layer: Number(row[1]),
      units: [...row[2]!.matchAll(/`([^`]+)`/g)].map((unit) => unit[1]!.replace(/\/$/, '').replace(/\.ts$/, '')),
    }));
    assert.deepEqual(
      rows.map((row) => row.units),
      await coreLayers(),
    );
    assert.deepEqual(
      rows.map((row) => row.layer),
      rows.map((_, i) => i),
    );
  });

  it('has no import cycle between files of src/, type-only imports included', () => {
    const found = cycles(importGraph()).map((cycle) => cycle.map(fromRoot).join(' <-> '));
    assert.deepEqual(found, []);
  });

  it('finds each cycle of an import graph, and only cycles', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set(['e'])],
      ['e', new Set(['d'])],
      ['f', new Set(['a'])],
    ]);
    assert.deepEqual(cycles(graph), [
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    assert.deepEqual(cycles(new Map([['a', new Set(['b'])]])), []);
  });
});
