import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

type Env = Record<string, string | undefined>;
type NpmEnv = (extra?: Env, base?: Env) => Env;

/** The installer is an ES module script outside the TypeScript project; load it by path. */
async function loadNpmEnv(): Promise<NpmEnv> {
  const installer = path.resolve(path.resolve(__dirname, '..'), '../../scripts/vscode-host/install.mjs');
  const module = (await import(installer)) as { npmEnv: NpmEnv };
  return module.npmEnv;
}

/** What `npm test` hands its scripts: the outer npm's own description of itself and of the Node it runs on. */
const OUTER_NPM: Env = {
  npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
  npm_node_execpath: '/usr/bin/node',
  npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
  npm_config_node_gyp: '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js',
  npm_config_nodedir: '/usr',
  npm_lifecycle_event: 'test:integration',
  npm_package_json: '/somewhere/package.json',
  NPM_CONFIG_NPM_VERSION: '11.19.1',
};

describe('the VS Code host installer', () => {
  it('gives the npm it starts none of the outer npm script’s variables but the network settings', async () => {
    const npmEnv = await loadNpmEnv();
    const env = npmEnv(
      { TMPDIR: '/tmp/x' },
      {
        PATH: '/bin',
        HOME: '/root',
        npm_config_registry: 'http://127.0.0.1:4873/',
        npm_config_https_proxy: 'http://proxy:1',
        ...OUTER_NPM,
      },
    );
    for (const name of Object.keys(OUTER_NPM)) assert.equal(env[name], undefined, name);
    assert.equal(env['PATH'], '/bin');
    assert.equal(env['HOME'], '/root');
    assert.equal(env['TMPDIR'], '/tmp/x');
    assert.equal(env['npm_config_registry'], 'http://127.0.0.1:4873/');
    assert.equal(env['npm_config_https_proxy'], 'http://proxy:1');
    assert.equal(env['npm_config_unsafe_perm'], 'true');
    assert.equal(env['npm_config_yes'], 'true');
  });

  it('lets the npm it starts report the Node it really runs on, as code-server’s postinstall reads it', async function () {
    this.timeout(60_000);
    const npmEnv = await loadNpmEnv();
    const folder = mkdtempSync(path.join(tmpdir(), 'fdref-npm-env-'));
    try {
      const script = 'node -e "process.stdout.write(String(process.env.npm_config_user_agent))"';
      writeFileSync(
        path.join(folder, 'package.json'),
        JSON.stringify({ name: 'probe', private: true, scripts: { agent: script } }),
      );
      const outer = {
        ...process.env,
        ...OUTER_NPM,
        npm_config_user_agent: 'npm/11.19.1 node/v1.2.3 linux x64 workspaces/false',
      };
      const result = spawnSync('npm', ['run', '--silent', 'agent'], {
        cwd: folder,
        env: npmEnv({}, outer),
        encoding: 'utf8',
      });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, new RegExp(` node/${process.version.replace(/\./g, '\\.')} `));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
