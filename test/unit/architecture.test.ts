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
