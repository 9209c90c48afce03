import assert from 'node:assert/strict';
import { promises as nodeFs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import * as vscode from 'vscode';
import type { ConnectAgentResult } from '../../src/agents/connectAgent';
import { closeAllEditors, eventually, fdref, messageMark, messagesSince, workspaceRoot } from './support/fdref';

/** A home folder and a global storage folder of the test's own, so no real configuration is touched. */
async function folders(): Promise<{ home: string; globalStorage: string; dispose: () => Promise<void> }> {
  const root = await nodeFs.mkdtemp(path.join(os.tmpdir(), 'fdref-connect-'));
  const home = path.join(root, 'home');
  const globalStorage = path.join(root, 'globalStorage');
  await nodeFs.mkdir(home);
  await nodeFs.mkdir(globalStorage);
  return { home, globalStorage, dispose: () => nodeFs.rm(root, { recursive: true, force: true }) };
}

const NO_CLAUDE_CLI = '/nonexistent-fdref-path';

async function connect(args: Record<string, unknown>): Promise<ConnectAgentResult | undefined> {
  return vscode.commands.executeCommand<ConnectAgentResult | undefined>('fdref.connectAgent', {
    searchPath: NO_CLAUDE_CLI,
    confirm: true,
    ...args,
  });
}

async function readJson(file: string): Promise<Record<string, Record<string, unknown>>> {
  return JSON.parse(await nodeFs.readFile(file, 'utf8')) as Record<string, Record<string, unknown>>;
}

describe('Connect an Agent', () => {
  let where: Awaited<ReturnType<typeof folders>>;
  beforeEach(async () => {
    await fdref();
    where = await folders();
  });
  afterEach(async () => {
    await closeAllEditors();
    await where.dispose();
  });

  const files = {
    claude: (home: string) => path.join(home, '.claude.json'),
    cursor: (home: string) => path.join(home, '.cursor', 'mcp.json'),
    cline: (_home: string, globalStorage: string) =>
      path.join(globalStorage, 'saoudrizwan.claude-dev', 'settings', 'cline_mcp_settings.json'),
  } as const;

  for (const agent of ['claude', 'cursor', 'cline'] as const) {
    it(`writes ${agent}'s configuration file with the fdref server on this workspace`, async () => {
      const result = await connect({ agent, home: where.home, globalStorage: where.globalStorage });
      const file = files[agent](where.home, where.globalStorage);
      assert.equal(result?.written, true);
      assert.equal(result.file, file);
      const entry = (await readJson(file))['mcpServers']?.['fdref'] as { command: string; args: string[] };
      assert.equal(entry.command, result.launch.command);
      // The server's command line, and the result budget the client gets (clientBudgets.ts) where it has one.
      const budget = { claude: ['--result-chars', '40000'], cursor: [], cline: ['--result-chars', '8000'] }[agent];
      assert.deepEqual(entry.args, [...result.launch.args, ...budget]);
      assert.ok(entry.args.includes('--store'));
      assert.equal(entry.args[entry.args.indexOf('--workspace') + 1], workspaceRoot().fsPath);
    });
  }

  it('merges with a file holding another server and other keys, and keeps the previous file', async () => {
    const file = files.cursor(where.home);
    await nodeFs.mkdir(path.dirname(file));
    const before = `{\n  // my servers\n  "mcpServers": {\n    "github": { "command": "docker", "args": ["run"] },\n    "fdref": { "command": "old" }\n  },\n  "theme": "dark"\n}\n`;
    await nodeFs.writeFile(file, before);
    const result = await connect({ agent: 'cursor', home: where.home, globalStorage: where.globalStorage });
    assert.equal(result?.written, true);
    assert.equal(result.replaced, true);
    const after = await nodeFs.readFile(file, 'utf8');
    assert.ok(after.includes('// my servers'), 'the comment is kept');
    assert.ok(
      after.includes('"github": { "command": "docker", "args": ["run"] }'),
      'the other server is kept as written',
    );
    assert.ok(after.includes('"theme": "dark"'));
    assert.ok(!after.includes('"old"'), 'the old fdref entry is replaced');
    assert.equal(await nodeFs.readFile(`${file}.fdref-backup`, 'utf8'), before);
  });

  it('refuses a malformed file, says where, and writes nothing', async () => {
    const file = files.claude(where.home);
    const broken = '{"mcpServers": {"github": {"command": "docker"},}}';
    await nodeFs.writeFile(file, broken);
    const mark = await messageMark();
    const result = await connect({ agent: 'claude', home: where.home, globalStorage: where.globalStorage });
    assert.equal(result, undefined);
    const error = (await messagesSince(mark)).find((message) => message.level === 'error');
    assert.match(error?.text ?? '', /\.claude\.json has a trailing comma.*line 1, column \d+.*nothing was written/);
    assert.equal(await nodeFs.readFile(file, 'utf8'), broken);
    assert.deepEqual((await nodeFs.readdir(where.home)).sort(), ['.claude.json']);
  });

  it('copies the configuration to the clipboard', async () => {
    const result = await connect({ agent: 'copy', home: where.home, globalStorage: where.globalStorage });
    const copied = JSON.parse(await vscode.env.clipboard.readText()) as {
      mcpServers: { fdref: { command: string; args: string[] } };
    };
    assert.equal(copied.mcpServers.fdref.command, result?.launch.command);
    assert.deepEqual(copied.mcpServers.fdref.args, result?.launch.args);
  });

  it('configures a command line that starts the server, which answers an MCP client; the extension sees its session while both run', async () => {
    const result = await connect({ agent: 'cursor', home: where.home, globalStorage: where.globalStorage });
    const entry = (await readJson(files.cursor(where.home)))['mcpServers']?.['fdref'] as {
      command: string;
      args: string[];
      env?: Record<string, string>;
    };
    assert.ok(result);
    const launcher = entry.args[0] ?? '';
    assert.ok(
      !launcher.startsWith(vscode.extensions.getExtension('fdref.fdref')!.extensionPath),
      'not in the extension',
    );
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...(process.env as Record<string, string>), ...entry.env },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'connect-agent-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      assert.match(client.getServerVersion()?.name ?? '', /fdref/);
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      assert.ok(tools.includes('run_command') && tools.includes('read_fd'), tools.join(', '));

      // The server writes into the extension's store: its session, ref and long output show in VS Code.
      const stored = await client.callTool({
        name: 'store_text',
        arguments: { text: 'Here:\n<ref id="from_agent">\n```python\nprint("agent")\n```\n</ref>\n' },
      });
      assert.notEqual(stored.isError, true, JSON.stringify(stored.content));
      const ran = await client.callTool({ name: 'run_command', arguments: { command: 'seq 1 20000' } });
      assert.notEqual(ran.isError, true, JSON.stringify(ran.content));
      const api = await fdref();
      const session = await eventually(async () => {
        const sessions = await api.registry.list();
        return sessions.find((s) => s.name.startsWith('connect-agent-test'));
      }, "the MCP server's session in the registry");
      const id = session.id;
      const children = await eventually(async () => {
        const nodes = await api.tree.getChildren({ kind: 'session', sessionId: id });
        return nodes.length === 2 ? nodes : undefined;
      }, "the server's ref and descriptor in the tree");
      assert.deepEqual(
        children.map((c) => (c.kind === 'descriptor' ? c.descriptorId : c.kind)),
        ['ref:from_agent', 'fd:1'],
      );
      const folder = vscode.Uri.from({ scheme: 'fdref', path: `/${session.name} (${id})` });
      const refText = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'refs', 'from_agent.py'));
      assert.equal(new TextDecoder().decode(refText), 'print("agent")');
      const output = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder, 'fds', 'fd-1.txt'));
      const expected = Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join('');
      assert.equal(new TextDecoder().decode(output), expected, 'the whole command output, as the server stored it');
    } finally {
      await client.close();
    }
  });

  describe('every agent, with its hook or instructions, and Disconnect', () => {
    /** A PATH holding only Node (so the hooks get one), never `claude` (so its file is written, not `claude mcp add`). */
    async function nodeOnlyPath(): Promise<string> {
      const bin = path.join(path.dirname(where.home), 'bin');
      await nodeFs.mkdir(bin, { recursive: true });
      for (const folder of (process.env['PATH'] ?? '').split(path.delimiter)) {
        const node = path.join(folder, 'node');
        if (
          folder !== '' &&
          (await nodeFs.access(node).then(
            () => true,
            () => false,
          ))
        ) {
          await nodeFs.symlink(node, path.join(bin, 'node'));
          return bin;
        }
      }
      throw new Error('the integration tests need a Node on the PATH');
    }

    async function disconnect(args: Record<string, unknown>): Promise<ConnectAgentResult | undefined> {
      return vscode.commands.executeCommand<ConnectAgentResult | undefined>('fdref.disconnectAgent', {
        confirm: true,
        ...args,
      });
    }

    /** Every file under `folder`, with its text: what Disconnect must give back. */
    async function snapshot(folder: string): Promise<Record<string, string>> {
      const files: Record<string, string> = {};
      for (const entry of await nodeFs.readdir(folder, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || entry.name.endsWith('.fdref-backup')) continue;
        const file = path.join(entry.parentPath, entry.name);
        files[path.relative(folder, file)] = await nodeFs.readFile(file, 'utf8');
      }
      return files;
    }

    async function write(file: string, text: string): Promise<void> {
      await nodeFs.mkdir(path.dirname(file), { recursive: true });
      await nodeFs.writeFile(file, text);
    }

    const store = async (): Promise<string> => (await fdref()).registry.storeFolder;

    it('Claude Code: the server in ~/.claude.json and the Bash hook in ~/.claude/settings.json; Disconnect gives both back', async () => {
      const searchPath = await nodeOnlyPath();
      await write(
        path.join(where.home, '.claude.json'),
        '{\n  "numStartups": 3,\n  "mcpServers": {\n    "github": { "command": "gh" }\n  }\n}\n',
      );
      await write(
        path.join(where.home, '.claude', 'settings.json'),
        '{\n  "permissions": { "allow": ["Bash(npm test:*)"] }\n}\n',
      );
      const before = await snapshot(where.home);
      const common = { agent: 'claude-code', scope: 'user', home: where.home, globalStorage: where.globalStorage };
      const result = await connect({ ...common, searchPath });
      assert.equal(result?.written, true);
      assert.deepEqual(result.files, [
        path.join(where.home, '.claude.json'),
        path.join(where.home, '.claude', 'settings.json'),
      ]);
      const settings = (await readJson(path.join(where.home, '.claude', 'settings.json'))) as unknown as {
        permissions: unknown;
        hooks: { PreToolUse: { matcher: string; hooks: { command: string }[] }[] };
      };
      assert.deepEqual(settings.permissions, { allow: ['Bash(npm test:*)'] });
      const command = settings.hooks.PreToolUse[0]?.hooks[0]?.command ?? '';
      assert.equal(settings.hooks.PreToolUse[0]?.matcher, 'Bash');
      assert.match(
        command,
        /^'[^']*node' '[^']*fdref-cli\.js' hook claude-code --store '([^']*)' --preview-chars \d+ --mcp$/,
      );
      assert.equal(/--store '([^']*)'/.exec(command)?.[1], await store());
      const cli = /^'[^']*' '([^']*)'/.exec(command)?.[1] ?? '';
      await nodeFs.access(cli); // the command-line tool's launcher is there
      assert.ok(
        result.notes?.some((note) => /permission rules/.test(note)),
        "Claude Code's permission note",
      );
      const mcp = (await readJson(path.join(where.home, '.claude.json')))['mcpServers'];
      assert.deepEqual(Object.keys(mcp ?? {}), ['github', 'fdref']);

      const undone = await disconnect(common);
      assert.equal(undone?.written, true);
      assert.deepEqual(await snapshot(where.home), before, 'every file as it was before Connect');
      assert.equal((await disconnect(common))?.written, false, 'nothing left to remove');
    });

    it('Codex: [mcp_servers.fdref] in config.toml and the hook in hooks.json, the rest of the TOML kept byte for byte', async () => {
      const searchPath = await nodeOnlyPath();
      const toml = 'model = "o4"\n\n[mcp_servers.docs]\ncommand = "docs"\n';
      await write(path.join(where.home, '.codex', 'config.toml'), toml);
      const before = await snapshot(where.home);
      const common = { agent: 'codex', scope: 'user', home: where.home, globalStorage: where.globalStorage };
      const result = await connect({ ...common, searchPath });
      assert.equal(result?.written, true);
      const after = await nodeFs.readFile(path.join(where.home, '.codex', 'config.toml'), 'utf8');
      assert.ok(after.startsWith(toml));
      assert.match(after, /\n\[mcp_servers\.fdref\]\ncommand = "[^"]+"\nargs = \[.*"--result-chars", "9000"\]\n/);
      const hooks = await nodeFs.readFile(path.join(where.home, '.codex', 'hooks.json'), 'utf8');
      assert.match(hooks, /hook codex --store '[^']+' --preview-chars 6000 --mcp/);
      assert.ok(
        result.notes?.some((note) => note.includes('/hooks')),
        'Codex: trust the hook in /hooks',
      );
      await disconnect(common);
      assert.deepEqual(await snapshot(where.home), before);
    });

    it('Gemini CLI: the server and the BeforeTool hook in one settings.json with comments; Disconnect gives it back', async () => {
      const searchPath = await nodeOnlyPath();
      const file = path.join(where.home, '.gemini', 'settings.json');
      await write(file, '{\n  // mine\n  "theme": "GitHub",\n}\n');
      const before = await snapshot(where.home);
      const common = { agent: 'gemini-cli', scope: 'user', home: where.home, globalStorage: where.globalStorage };
      const result = await connect({ ...common, searchPath });
      assert.deepEqual(result?.files, [file]);
      const text = await nodeFs.readFile(file, 'utf8');
      assert.match(text, /\/\/ mine/);
      assert.match(text, /"fdref": \{/);
      assert.match(text, /"BeforeTool"/);
      await disconnect(common);
      assert.deepEqual(await snapshot(where.home), before);
    });

    it('Qwen Code: the server and instructions (QWEN.md), even without Node on the PATH; Disconnect removes both', async () => {
      const common = { agent: 'qwen-code', scope: 'user', home: where.home, globalStorage: where.globalStorage };
      const result = await connect({ ...common, searchPath: NO_CLAUDE_CLI });
      assert.deepEqual(result?.files, [
        path.join(where.home, '.qwen', 'settings.json'),
        path.join(where.home, '.qwen', 'QWEN.md'),
      ]);
      assert.match(await nodeFs.readFile(path.join(where.home, '.qwen', 'QWEN.md'), 'utf8'), /run_command/);
      await disconnect(common);
      assert.deepEqual(await snapshot(where.home), {}, 'the files Connect created are gone');
    });

    it('Claude Code with `claude` on the PATH: `claude mcp add` for the server, the hook written to settings.json beside it', async () => {
      const searchPath = await nodeOnlyPath();
      const calls = path.join(path.dirname(where.home), 'claude-calls.txt');
      // A stand-in `claude` that records its arguments, one call a line.
      await write(path.join(searchPath, 'claude'), `#!/bin/sh\necho "$*" >> '${calls}'\n`);
      await nodeFs.chmod(path.join(searchPath, 'claude'), 0o755);
      const result = await connect({
        agent: 'claude-code',
        home: where.home,
        globalStorage: where.globalStorage,
        searchPath,
      });
      assert.equal(result?.written, true);
      assert.match(await nodeFs.readFile(calls, 'utf8'), /^mcp add --scope user fdref -- .* --result-chars 40000\n$/);
      assert.deepEqual(result.files, [path.join(where.home, '.claude', 'settings.json')]);
      assert.match(
        await nodeFs.readFile(path.join(where.home, '.claude', 'settings.json'), 'utf8'),
        /hook claude-code --store '[^']+' --preview-chars 8000 --mcp/,
      );
      await nodeFs.access(path.join(where.home, '.claude.json')).then(
        () => assert.fail('fdref wrote ~/.claude.json itself'),
        () => undefined,
      );
    });

    it('without Node on the PATH, Claude Code gets its server and no hook, and is told why', async () => {
      const result = await connect({
        agent: 'claude-code',
        scope: 'user',
        home: where.home,
        globalStorage: where.globalStorage,
      });
      assert.deepEqual(result?.files, [path.join(where.home, '.claude.json')]);
      assert.match(result.notes?.[0] ?? '', /^No hook: .*Node 20\.9/);
    });

    it("writes into FDREF_AGENT_HOME (the npm start demo's profile) instead of the home folder, and says so", async () => {
      const saved = process.env['FDREF_AGENT_HOME'];
      process.env['FDREF_AGENT_HOME'] = where.home;
      try {
        const mark = await messageMark();
        const result = await vscode.commands.executeCommand<ConnectAgentResult | undefined>('fdref.connectAgent', {
          agent: 'cursor',
          scope: 'user',
          searchPath: NO_CLAUDE_CLI,
          confirm: true,
        });
        assert.equal(result?.file, path.join(where.home, '.cursor', 'mcp.json'));
        const info = (await messagesSince(mark)).find((message) => message.level === 'info');
        assert.ok(info?.text.includes(`in the home folder ${where.home}, not yours`), info?.text);
      } finally {
        if (saved === undefined) delete process.env['FDREF_AGENT_HOME'];
        else process.env['FDREF_AGENT_HOME'] = saved;
      }
    });
  });
});
