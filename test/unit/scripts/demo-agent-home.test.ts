import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const scripts = path.resolve(path.resolve(__dirname, '..'), '../../scripts/vscode-host');

// `npm start` must never write agents' configurations into the real home folder: its VS Code gets FDREF_AGENT_HOME,
// a folder of the demo's temporary profile, which Connect an Agent uses as the home folder.
describe("npm start's demo and the agents' home folder", () => {
  it('gives Connect an Agent a home folder inside the temporary folder the demo removes', async () => {
    const demo = (await import(path.join(scripts, 'demo.mjs'))) as {
      demoEnvironment: (root: string) => Record<string, string>;
    };
    const env = demo.demoEnvironment('/tmp/fdref-vscode-1.139.1-abc');
    assert.equal(env['FDREF_AGENT_HOME'], '/tmp/fdref-vscode-1.139.1-abc/home');
  });

  it('start.mjs hands that environment to the VS Code it starts, which passes it to the extension host', () => {
    const start = readFileSync(path.join(scripts, 'start.mjs'), 'utf8');
    assert.match(start, /startServer\(\{[\s\S]*\benv: demoEnvironment,[\s\S]*\}\);/);
    const host = readFileSync(path.join(scripts, 'host.mjs'), 'utf8');
    assert.match(host, /typeof env === 'function' \? env\(root\) : env/);
  });
});
