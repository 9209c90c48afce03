import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { cycles, filesUnder, importGraph, importsOf, root } from './support/importGraph';

/** The folder a module belongs to for layering: `core/chat` for src/core/chat/..., `chat` for src/chat/... . */
function unitOf(file: string): string {
  const parts = path.relative(path.join(root, 'src'), file).split(path.sep);
  if (parts[0] === 'core') return parts.length > 2 ? `core/${parts[1]}` : `core/${parts[1]!.replace(/\.ts$/, '')}`;
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
}

/** Folder-level import cycles (strongly connected components of more than one folder), each sorted. */
function folderCycles(): string[][] {
  return cycles(importGraph(unitOf));
}

describe('architecture', () => {
  it('keeps src/core free of any vscode import', () => {
    const offenders = filesUnder(path.join(root, 'src/core')).filter((file) =>
      /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]vscode['"]/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('lets src/core/tools use src/core/files and never the other way round', () => {
    const offenders = filesUnder(path.join(root, 'src/core/files')).filter((file) =>
      /from\s+['"]\.\.\/tools(?:\/|['"])/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('keeps the saved chat format (core/session/transcript.ts) free of the chat and its webview protocol', () => {
    assert.doesNotMatch(
      readFileSync(path.join(root, 'src/core/session/transcript.ts'), 'utf8'),
      /from\s+['"]\.\.\/chat\//,
    );
  });

  it('writes the id grammar in src/core/ids.ts alone, so no copy can drift', () => {
    const src = path.join(root, 'src');
    const holding = (needle: string): string[] =>
      filesUnder(src)
        .filter((file) => readFileSync(file, 'utf8').includes(needle))
        .map((file) => path.relative(root, file).split(path.sep).join('/'));
    assert.deepEqual(holding('[A-Za-z0-9][A-Za-z0-9_.-]'), ['src/core/ids.ts']);
    for (const needle of ['fd:[1-9]', 'fd:([1-9]', '@[1-9]', '@([1-9]', '[0-9]{1,3}-[0-9]'])
      assert.deepEqual(holding(needle), [], needle);
  });

  it('imports zod as a namespace (`import * as z`): `import { z }` makes esbuild bundle all of zod with every locale', () => {
    const offenders = filesUnder(path.join(root, 'src'))
      .filter((file) => /import\s+(type\s+)?\{[^}]*\}\s+from\s+['"]zod(\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    assert.deepEqual(offenders, []);
  });

  it('gives each command only the services it uses: the whole bag stays in registerCommands', () => {
    const commands = path.join(root, 'src/commands');
    const holding = filesUnder(commands)
      .filter((file) => readFileSync(file, 'utf8').includes('CommandServices'))
      .map((file) => path.relative(commands, file));
    assert.deepEqual(holding.sort(), ['command.ts', 'registerCommands.ts']);
  });

  it('builds and takes apart descriptor ids in src/core/ids.ts alone, so every id is written one way', () => {
    const src = path.join(root, 'src');
    const files = filesUnder(src).filter(
      (file) => path.basename(file) !== 'ids.ts' || path.dirname(file) !== path.join(src, 'core'),
    );
    // An id put together from its prefix, or a prefix tested or cut off by hand.
    const handBuilt = /`(?:ref|fd):\$\{|'(?:ref|fd):'|\((?:\?:)?(?:ref\|fd|fd\|ref)\):/;
    const offenders = files
      .filter((file) => handBuilt.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file).split(path.sep).join('/'));
    assert.deepEqual(offenders, []);
  });

  it('lets folders depend on each other one way only, the folders of the core included', () => {
    assert.deepEqual(folderCycles(), []);
  });

  it('has ESLint refuse an adapter import in the core, the webview and the benchmarks, whatever the depth', async function () {
    this.timeout(60_000);
    const { ESLint } = await import('eslint');
    const eslint = new ESLint({ cwd: root });
    const refused = async (file: string, specifier: string): Promise<boolean> => {
      const [result] = await eslint.lintText(`import { x } from '${specifier}';\nexport const y = x;\n`, {
        filePath: path.join(root, file),
      });
      return (result?.messages ?? []).some((message) => message.ruleId === 'no-restricted-imports');
    };
    assert.equal(await refused('src/core/ids.ts', '../chat/chatPanel'), true);
    assert.equal(await refused('src/core/refs/tag.ts', '../../sessions/sessionRegistry'), true);
    assert.equal(await refused('src/core/chat/providers/sdks.ts', '../../../webview/dom'), true);
    assert.equal(await refused('src/core/refs/tag.ts', 'vscode'), true);
    assert.equal(await refused('src/webview/dom.ts', '../chat/chatPanel'), true);
    assert.equal(await refused('bench/chat.ts', '../src/sessions/sessionRegistry'), true);
    // What the layering allows stays allowed (an import down the core's own layers: test/unit/layers.test.ts).
    assert.equal(await refused('src/core/chat/protocol.ts', '../refs/tag'), false);
    assert.equal(await refused('src/webview/dom.ts', '../core/ids'), false);
    assert.equal(await refused('bench/chat.ts', '../src/core'), false);
  });

  it('builds dist/core.js as CommonJS with the public surface', function () {
    const bundle = path.join(root, 'dist/core.js');
    if (!existsSync(bundle)) this.skip(); // `npm test` builds first; a bare `mocha` run may not have
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const core = require(bundle);
    for (const name of ['Session', 'extractRefs', 'RefStreamParser', 'nodeFileSystem']) assert.ok(core[name], name);
    const session = new core.Session();
    session.ingestAssistantMessage('<ref id="a">x</ref>');
    assert.equal(session.getDescriptor('ref:a').content.text, 'x');
    assert.equal(typeof core.Session.fromJSON, 'function');
  });

  it("reaches the chat's lazily loaded code (src/chat/runtime/chatRuntime.ts) only through chatRuntime() in its loader", () => {
    const runtime = path.join(root, 'src/chat/runtime/chatRuntime');
    const loader = path.join(root, 'src/chat/chatRuntimeLoader.ts');
    /** Where a file loads chatRuntime at run time: an import that is not `import type`, `import()` or `require`. */
    const loadsRuntime = (file: string) =>
      [
        ...readFileSync(file, 'utf8').matchAll(
          /^\s*(?:import|export)(\s+type\b)?[^;]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]|(?:import|require)\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/gm,
        ),
      ].some(
        (match) =>
          match[1] === undefined &&
          path.resolve(path.dirname(file), (match[2] ?? match[3])!).replace(/\.ts$/, '') === runtime,
      );
    assert.deepEqual(
      filesUnder(path.join(root, 'src')).filter((file) => loadsRuntime(file)),
      [loader],
    );
    // The lazy code never holds the loader (a second copy of it would load the chat's code again).
    const reached = new Set<string>();
    const walk = (file: string): void => {
      if (reached.has(file)) return;
      reached.add(file);
      for (const target of importsOf(file)) walk(target);
    };
    walk(`${runtime}.ts`);
    assert.ok(!reached.has(loader));
  });
});
