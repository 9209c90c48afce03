import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { claudeCliCommands, configFilePath, shellQuote } from '../../../../src/core/agents/agentClients';
import { BACKUP_SUFFIX, readConfigFile, replaceConfigFile } from '../../../../src/core/agents/configFile';
import { launcherPath, refreshExistingLauncher, refreshLauncher } from '../../../../src/core/agents/launcher';
import { AgentConfigError } from '../../../../src/core/agents/mergeServerEntry';
import { findOnPath, isSupportedNodeVersion, serverLaunch } from '../../../../src/core/agents/serverLaunch';

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), 'fdref-agents-'));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('agent configuration files', () => {
  it('are where each client reads them', () => {
    const locations = { home: '/home/u', globalStorage: '/home/u/.config/Code/User/globalStorage' };
    assert.equal(configFilePath('claude', locations), '/home/u/.claude.json');
    assert.equal(configFilePath('claude', { ...locations, claudeConfigDir: '/cfg' }), '/cfg/.claude.json');
    assert.equal(configFilePath('cursor', locations), '/home/u/.cursor/mcp.json');
    assert.equal(
      configFilePath('cline', locations),
      '/home/u/.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json',
    );
  });

  it('are created with their folders, readable only by the user', async () => {
    const file = path.join(root, '.cursor', 'mcp.json');
    const state = await readConfigFile(file, 'mcp.json');
    assert.equal(state.text, undefined);
    await replaceConfigFile(state, '{"mcpServers":{}}\n', 'mcp.json');
    assert.equal(await fs.readFile(file, 'utf8'), '{"mcpServers":{}}\n');
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    await assert.rejects(fs.access(file + BACKUP_SUFFIX), 'no backup of a file that was not there');
  });

  it('are replaced keeping their mode, with the previous text kept beside them, and no temporary file left', async () => {
    const file = path.join(root, '.claude.json');
    await fs.writeFile(file, '{"a": 1}');
    await fs.chmod(file, 0o640);
    await replaceConfigFile(await readConfigFile(file, '~/.claude.json'), '{"a": 2}', '~/.claude.json');
    assert.equal(await fs.readFile(file, 'utf8'), '{"a": 2}');
    assert.equal((await fs.stat(file)).mode & 0o777, 0o640);
    assert.equal(await fs.readFile(file + BACKUP_SUFFIX, 'utf8'), '{"a": 1}');
    assert.deepEqual((await fs.readdir(root)).sort(), ['.claude.json', `.claude.json${BACKUP_SUFFIX}`]);
  });

  it('are not replaced when another program wrote them since they were read', async () => {
    const file = path.join(root, '.claude.json');
    await fs.writeFile(file, '{"a": 1}');
    const state = await readConfigFile(file, '~/.claude.json');
    await fs.writeFile(file, '{"a": 1, "numStartups": 2}');
    await assert.rejects(
      replaceConfigFile(state, '{"a": 2}', '~/.claude.json'),
      (error: unknown) =>
        error instanceof AgentConfigError && /changed while fdref was adding its server/.test(error.message),
    );
    assert.equal(await fs.readFile(file, 'utf8'), '{"a": 1, "numStartups": 2}');
  });

  it('behind a symbolic link are replaced where the link leads, and the link stays', async () => {
    const dotfiles = path.join(root, 'dotfiles');
    await fs.mkdir(dotfiles);
    await fs.writeFile(path.join(dotfiles, 'claude.json'), '{}');
    const link = path.join(root, '.claude.json');
    await fs.symlink(path.join(dotfiles, 'claude.json'), link);
    await replaceConfigFile(await readConfigFile(link, '~/.claude.json'), '{"b": 1}', '~/.claude.json');
    assert.ok((await fs.lstat(link)).isSymbolicLink());
    assert.equal(await fs.readFile(path.join(dotfiles, 'claude.json'), 'utf8'), '{"b": 1}');
  });

  it('that are folders or not UTF-8 are refused', async () => {
    await fs.mkdir(path.join(root, 'mcp.json'));
    await assert.rejects(readConfigFile(path.join(root, 'mcp.json'), 'mcp.json'), /mcp.json is not a file/);
    await fs.writeFile(path.join(root, 'bad.json'), Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    await assert.rejects(readConfigFile(path.join(root, 'bad.json'), 'bad.json'), /is not UTF-8 text/);
  });
});

describe('the launcher', () => {
  it('is a copy of the server bundle, refreshed only when the bundle changed', async () => {
    const bundle = path.join(root, 'extension', 'dist', 'mcp.js');
    await fs.mkdir(path.dirname(bundle), { recursive: true });
    await fs.writeFile(bundle, 'console.log("v1")');
    const folder = path.join(root, 'storage', 'mcp');
    assert.equal(await refreshExistingLauncher(bundle, folder), undefined, 'nothing made before an agent is connected');
    await assert.rejects(fs.access(folder));

    const first = await refreshLauncher(bundle, folder);
    assert.deepEqual(first, { path: launcherPath(folder, bundle), refresh: 'created' });
    assert.equal(path.basename(first.path), 'fdref-mcp.js');
    assert.equal(await fs.readFile(first.path, 'utf8'), 'console.log("v1")');
    assert.equal(await refreshExistingLauncher(bundle, folder), 'unchanged');

    await fs.writeFile(bundle, 'console.log("v2")');
    assert.equal(await refreshExistingLauncher(bundle, folder), 'updated');
    assert.equal(await fs.readFile(first.path, 'utf8'), 'console.log("v2")');
    assert.deepEqual(await fs.readdir(folder), ['fdref-mcp.js']);
  });

  it('copies the workers and native binaries the server loads from beside itself with the server, and refreshes them with it', async () => {
    const dist = path.join(root, 'extension', 'dist');
    const folder = path.join(root, 'storage');
    await fs.mkdir(path.join(dist, 'native'), { recursive: true });
    await fs.writeFile(path.join(dist, 'mcp.js'), 'server v1');
    await fs.writeFile(path.join(dist, 'jqWorker.js'), 'jq v1');
    await fs.writeFile(path.join(dist, 'diffWorker.js'), 'diff v1');
    await fs.writeFile(path.join(dist, 'searchWorker.js'), 'search v1');
    await fs.writeFile(path.join(dist, 'native', 'libsql-linux-x64-gnu.node'), 'native v1');
    await refreshLauncher(path.join(dist, 'mcp.js'), folder);
    assert.deepEqual((await fs.readdir(folder)).sort(), [
      'fdref-diffWorker.js',
      'fdref-jqWorker.js',
      'fdref-mcp.js',
      'fdref-searchWorker.js',
      'native',
    ]);
    assert.equal(await fs.readFile(path.join(folder, 'native', 'libsql-linux-x64-gnu.node'), 'utf8'), 'native v1');
    await fs.writeFile(path.join(dist, 'jqWorker.js'), 'jq v2');
    await fs.writeFile(path.join(dist, 'diffWorker.js'), 'diff v2');
    await fs.writeFile(path.join(dist, 'searchWorker.js'), 'search v2');
    await fs.writeFile(path.join(dist, 'native', 'libsql-linux-x64-gnu.node'), 'native v2 (longer)');
    await refreshLauncher(path.join(dist, 'mcp.js'), folder);
    assert.equal(await fs.readFile(path.join(folder, 'fdref-jqWorker.js'), 'utf8'), 'jq v2');
    assert.equal(await fs.readFile(path.join(folder, 'fdref-diffWorker.js'), 'utf8'), 'diff v2');
    assert.equal(await fs.readFile(path.join(folder, 'fdref-searchWorker.js'), 'utf8'), 'search v2');
    assert.equal(
      await fs.readFile(path.join(folder, 'native', 'libsql-linux-x64-gnu.node'), 'utf8'),
      'native v2 (longer)',
    );
  });

  it('says which bundle is missing', async () => {
    await assert.rejects(
      refreshLauncher(path.join(root, 'dist', 'mcp.js'), root),
      /MCP server bundle .*dist\/mcp\.js cannot be read/,
    );
    await assert.rejects(
      refreshLauncher(path.join(root, 'dist', 'cli.js'), root),
      /command-line tool bundle .*dist\/cli\.js cannot be read/,
    );
  });

  it('keeps the command-line tool beside the server, each refreshed from its own bundle', async () => {
    const dist = path.join(root, 'extension', 'dist');
    await fs.mkdir(dist, { recursive: true });
    await fs.writeFile(path.join(dist, 'mcp.js'), 'server v1');
    await fs.writeFile(path.join(dist, 'cli.js'), 'cli v1');
    const folder = path.join(root, 'storage', 'mcp');
    assert.equal((await refreshLauncher(path.join(dist, 'mcp.js'), folder)).refresh, 'created');
    const cli = await refreshLauncher(path.join(dist, 'cli.js'), folder);
    assert.deepEqual(cli, { path: path.join(folder, 'fdref-cli.js'), refresh: 'created' });
    await fs.writeFile(path.join(dist, 'cli.js'), 'cli v2');
    assert.equal(await refreshExistingLauncher(path.join(dist, 'mcp.js'), folder), 'unchanged');
    assert.equal(await refreshExistingLauncher(path.join(dist, 'cli.js'), folder), 'updated');
    assert.deepEqual((await fs.readdir(folder)).sort(), ['fdref-cli.js', 'fdref-mcp.js']);
    assert.equal(await fs.readFile(cli.path, 'utf8'), 'cli v2');
    assert.equal(await fs.readFile(path.join(folder, 'fdref-mcp.js'), 'utf8'), 'server v1');
  });
});

describe('the server’s runtime', () => {
  it('is a Node of at least the version the server needs', () => {
    for (const version of ['v20.9.0', 'v20.19.2\n', 'v22.0.0', 'v24.21.0']) assert.ok(isSupportedNodeVersion(version));
    for (const version of ['v20.8.1', 'v18.20.0', 'v8.0.0', '', 'node']) assert.ok(!isSupportedNodeVersion(version));
  });

  it('is found on the PATH as a shell finds it: the first executable, absolute entries only', async () => {
    const executables = new Set(['/opt/node/bin/node', '/usr/bin/node']);
    const search = (pathVariable: string) => ({
      pathVariable,
      platform: 'linux',
      isExecutable: (candidate: string) => Promise.resolve(executables.has(candidate)),
    });
    assert.equal(await findOnPath('node', search('bin:/nowhere::/opt/node/bin:/usr/bin')), '/opt/node/bin/node');
    assert.equal(await findOnPath('node', search('/usr/bin:/opt/node/bin')), '/usr/bin/node');
    assert.equal(await findOnPath('node', search('/nowhere')), undefined);
    assert.equal(await findOnPath('node', { ...search(''), pathVariable: undefined }), undefined);
  });

  it('is found on a Windows PATH with PATHEXT', async () => {
    const found = await findOnPath('node', {
      pathVariable: 'relative;"C:\\Program Files\\nodejs";C:\\Windows',
      platform: 'win32',
      pathExtensions: '.COM;.EXE',
      isExecutable: (candidate) => Promise.resolve(candidate === 'C:\\Program Files\\nodejs\\node.exe'),
    });
    assert.equal(found, 'C:\\Program Files\\nodejs\\node.exe');
  });
});

describe('the Claude Code command line', () => {
  const launch = serverLaunch({
    runtime: { kind: 'vscode', path: '/opt/VS Code/code' },
    launcher: '/s/fdref-mcp.js',
    store: '/s/store',
    workspaces: ['/w'],
  });

  it('adds the server for the user, its command after --, the environment after the name', () => {
    assert.deepEqual(claudeCliCommands(launch, false), [
      [
        'mcp',
        'add',
        '--scope',
        'user',
        'fdref',
        '--env',
        'ELECTRON_RUN_AS_NODE=1',
        '--',
        '/opt/VS Code/code',
        '/s/fdref-mcp.js',
        '--store',
        '/s/store',
        '--workspace',
        '/w',
        '--result-chars',
        '40000',
      ],
    ]);
  });

  it('removes an entry that is there first, since add will not replace one', () => {
    const commands = claudeCliCommands(launch, true);
    assert.deepEqual(commands[0], ['mcp', 'remove', '--scope', 'user', 'fdref']);
    assert.equal(commands.length, 2);
  });

  it('is shown as a shell would read it', () => {
    assert.equal(
      shellQuote(['claude', 'mcp', '/opt/VS Code/code', "it's", 'A=1']),
      `claude mcp '/opt/VS Code/code' 'it'\\''s' A=1`,
    );
  });
});
