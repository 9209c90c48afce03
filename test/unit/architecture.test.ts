import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../..');

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('architecture', () => {
  it('keeps src/core free of any vscode import', () => {
    const offenders = filesUnder(path.join(root, 'src/core')).filter((file) =>
      /(?:from\s+|import\s*\(\s*|require\s*\(\s*|import\s+)['"]vscode['"]/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('lets src/core/tools use src/core/files and never the other way round', () => {
    const offenders = filesUnder(path.join(root, 'src/core/files')).filter((file) => /from\s+['"]\.\.\/tools(?:\/|['"])/.test(readFileSync(file, 'utf8')));
    assert.deepEqual(offenders, []);
  });

  it('keeps the saved chat format (transcript.ts) free of the webview protocol', () => {
    assert.doesNotMatch(readFileSync(path.join(root, 'src/core/chat/transcript.ts'), 'utf8'), /from\s+['"]\.\/(?:protocol|views)['"]/);
  });

  it('writes the id grammar in src/core/ids.ts alone, so no copy can drift', () => {
    const src = path.join(root, 'src');
    const holding = (needle: string): string[] =>
      filesUnder(src)
        .filter((file) => readFileSync(file, 'utf8').includes(needle))
        .map((file) => path.relative(root, file).split(path.sep).join('/'));
    assert.deepEqual(holding('[A-Za-z0-9][A-Za-z0-9_.-]'), ['src/core/ids.ts']);
    for (const needle of ['fd:[1-9]', 'fd:([1-9]', '@[1-9]', '@([1-9]', '[0-9]{1,3}-[0-9]']) assert.deepEqual(holding(needle), [], needle);
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
    const files = filesUnder(src).filter((file) => path.basename(file) !== 'ids.ts' || path.dirname(file) !== path.join(src, 'core'));
    // An id put together from its prefix, or a prefix tested or cut off by hand.
    const handBuilt = /`(?:ref|fd):\$\{|'(?:ref|fd):'|\((?:\?:)?(?:ref\|fd|fd\|ref)\):/;
    const offenders = files
      .filter((file) => handBuilt.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file).split(path.sep).join('/'));
    assert.deepEqual(offenders, []);
  });

  it('lets the adapter folders depend on each other one way only', () => {
    // Folder -> folders its files import, for the folders directly under src/ other than the core.
    const src = path.join(root, 'src');
    const folderOf = (file: string): string | undefined => {
      const parts = path.relative(src, file).split(path.sep);
      return parts.length > 1 && parts[0] !== 'core' ? parts[0] : undefined;
    };
    const imports = new Map<string, Set<string>>();
    for (const file of filesUnder(src)) {
      const from = folderOf(file);
      if (from === undefined) continue;
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']*)'/g)) {
        const to = folderOf(path.resolve(path.dirname(file), spec as string));
        if (to !== undefined && to !== from) imports.set(from, (imports.get(from) ?? new Set()).add(to));
      }
    }
    const cycles: string[] = [];
    const visit = (folder: string, trail: string[]): void => {
      if (trail.includes(folder)) {
        cycles.push([...trail.slice(trail.indexOf(folder)), folder].join(' -> '));
        return;
      }
      for (const next of imports.get(folder) ?? []) visit(next, [...trail, folder]);
    };
    for (const folder of imports.keys()) visit(folder, []);
    assert.deepEqual([...new Set(cycles)], []);
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
});
