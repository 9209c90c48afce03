import assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  CONNECT_AGENT_IDS,
  connectAgentSummary,
  type ConnectAgentId,
  type ConnectLaunches,
  type ConnectLocations,
  connectPlan,
  disconnectPlan,
  type ConnectPlan,
  plannedPaths,
} from '../../../../src/core/agents/connectPlan';
import type { HookScope } from '../../../../src/core/agents/hooks/hookAgents';
import { AgentConfigError } from '../../../../src/core/agents/mergeServerEntry';
import { FDREF_MCP_TOOLS } from '../../../../src/core/agents/visibleTools';
import { toolsOn } from '../../../../src/core/tools/toolTable';

// js-yaml (mocha's own dependency) reads the YAML Connect writes as Continue would: a YAML 1.2 parser.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const yaml = require('js-yaml') as { load(text: string): unknown };

const home = '/home/ada';
const workspace = '/work/project';
const locations: ConnectLocations = { home, workspace, globalStorage: `${home}/.config/Code/User/globalStorage` };
const launches: ConnectLaunches = {
  server: {
    command: '/usr/bin/node',
    args: ['/gs/mcp/fdref-mcp.js', '--store', '/gs/store', '--workspace', workspace],
    env: {},
  },
  cli: { node: '/usr/bin/node', cli: '/gs/mcp/fdref-cli.js', store: '/gs/store' },
};

/** Files as a map; applying a plan writes into it (undefined `after` deletes). */
function disk(files: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(files));
}
function apply(files: Map<string, string>, plan: ConnectPlan): void {
  for (const file of plan.files) {
    assert.equal(files.get(file.path), file.before, `${file.label}: before`);
    if (file.after === undefined) files.delete(file.path);
    else files.set(file.path, file.after);
  }
}
const connect = (files: Map<string, string>, agent: ConnectAgentId, scope: HookScope = 'user') =>
  connectPlan(agent, scope, locations, launches, (file) => files.get(file));
const disconnect = (files: Map<string, string>, agent: ConnectAgentId, scope: HookScope = 'user') =>
  disconnectPlan(agent, scope, locations, (file) => files.get(file));

/** Connect, check, connect again (nothing to do), disconnect: the files are as they were. */
function roundTrip(agent: ConnectAgentId, scope: HookScope, start: Record<string, string>): Map<string, string> {
  const files = disk(start);
  const plan = connect(files, agent, scope);
  assert.ok(plan.files.length > 0, 'connect changes files');
  apply(files, plan);
  const connected = new Map(files);
  assert.deepEqual(connect(files, agent, scope).files, [], 'a second connect changes nothing');
  const undo = disconnect(files, agent, scope);
  apply(files, undo);
  assert.deepEqual(Object.fromEntries(files), start, 'disconnect gives back every file byte for byte');
  assert.deepEqual(disconnect(files, agent, scope).files, [], 'a second disconnect changes nothing');
  return connected;
}

const claudeJson = `{\n  "numStartups": 12,\n  "mcpServers": {\n    "github": {\n      "command": "gh-mcp"\n    }\n  },\n  "projects": {}\n}\n`;
const claudeSettings = `{\n  "permissions": {\n    "allow": ["Bash(npm test:*)"]\n  },\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Write",\n        "hooks": [{ "type": "command", "command": "lint-staged" }]\n      }\n    ]\n  }\n}\n`;
const codexToml = `model = "o4"\napproval_policy = "on-request"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\nargs = ["--port", "0"]\n\n[profiles.fast]\nmodel = "o4-mini"\n`;
const codexHooks = `{\n  "hooks": {\n    "PostToolUse": [\n      { "matcher": "^Bash$", "hooks": [{ "type": "command", "command": "notify" }] }\n    ]\n  }\n}\n`;
const geminiSettings = `{\n  // my settings\n  "theme": "GitHub",\n  "mcpServers": {\n    "other": { "command": "x" },\n  },\n  "hooks": {\n    "AfterTool": [{ "matcher": ".*", "hooks": [{ "type": "command", "command": "log" }] }]\n  }\n}\n`;
const continueYaml = `name: My assistant\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: m\n    provider: openai\n    model: gpt\nmcpServers:\n  - name: sqlite\n    command: npx\n    args: ["-y", "mcp-sqlite"]\nrules:\n  - Be brief\n`;

describe('Connect an Agent plan: what Connect and Disconnect write for each agent', () => {
  it('Claude Code at user scope: the server in ~/.claude.json and the hook in ~/.claude/settings.json, round-tripped', () => {
    const start = { [`${home}/.claude.json`]: claudeJson, [`${home}/.claude/settings.json`]: claudeSettings };
    const connected = roundTrip('claude-code', 'user', start);
    const config = JSON.parse(connected.get(`${home}/.claude.json`) ?? '') as {
      mcpServers: Record<string, { args: string[] }>;
    };
    assert.deepEqual(Object.keys(config.mcpServers), ['github', 'fdref']);
    assert.deepEqual(config.mcpServers['fdref']?.args.slice(-2), ['--result-chars', '40000']);
    const settings = JSON.parse(connected.get(`${home}/.claude/settings.json`) ?? '') as {
      hooks: { PreToolUse: { matcher: string; hooks: { command: string }[] }[] };
      permissions: unknown;
    };
    assert.deepEqual(settings.permissions, { allow: ['Bash(npm test:*)'] });
    const ours = settings.hooks.PreToolUse[1];
    assert.equal(ours?.matcher, 'Bash');
    assert.equal(
      ours?.hooks[0]?.command,
      `'/usr/bin/node' '/gs/mcp/fdref-cli.js' hook claude-code --store '/gs/store' --preview-chars 8000 --mcp`,
    );
  });

  it('Claude Code at project scope: .mcp.json and .claude/settings.json in the workspace, created then deleted', () => {
    const connected = roundTrip('claude-code', 'project', {});
    assert.deepEqual([...connected.keys()].sort(), [`${workspace}/.claude/settings.json`, `${workspace}/.mcp.json`]);
  });

  it('Codex: [mcp_servers.fdref] appended to config.toml, the rest byte for byte; the hook in hooks.json', () => {
    const start = { [`${home}/.codex/config.toml`]: codexToml, [`${home}/.codex/hooks.json`]: codexHooks };
    const connected = roundTrip('codex', 'user', start);
    const toml = connected.get(`${home}/.codex/config.toml`) ?? '';
    assert.ok(toml.startsWith(codexToml), 'the user’s TOML is kept as it was, in front');
    assert.match(
      toml,
      /\n\[mcp_servers\.fdref\]\ncommand = "\/usr\/bin\/node"\nargs = \[.*"--result-chars", "9000"\]\n/,
    );
    assert.match(
      connected.get(`${home}/.codex/hooks.json`) ?? '',
      /hook codex --store '\/gs\/store' --preview-chars 6000 --mcp/,
    );
    const plan = connect(disk(start), 'codex');
    assert.ok(
      plan.notes.some((note) => note.includes('/hooks')),
      'the note says to trust the hook in /hooks',
    );
  });

  it('Codex: a file without a final newline, and one with CRLF line ends, come back as they were', () => {
    roundTrip('codex', 'user', { [`${home}/.codex/config.toml`]: 'model = "o4"' });
    roundTrip('codex', 'user', { [`${home}/.codex/config.toml`]: 'model = "o4"\r\n\r\n[x]\r\ny = 1\r\n' });
    roundTrip('codex', 'project', {});
  });

  it('Codex: a server named fdref that fdref did not write, or an inline mcp_servers, is refused', () => {
    for (const toml of [
      '[mcp_servers.fdref]\ncommand = "mine"\n',
      '[mcp_servers."fdref".env]\nA = "1"\n',
      '[mcp_servers]\nfdref = { command = "mine" }\n',
      'mcp_servers = { docs = { command = "d" } }\n',
      'mcp_servers.fdref.command = "mine"\n',
    ]) {
      assert.throws(
        () => connect(disk({ [`${home}/.codex/config.toml`]: toml }), 'codex'),
        (error: unknown) => error instanceof AgentConfigError && /nothing was written/.test(error.message),
        toml,
      );
    }
    // Another server in [mcp_servers] is no reason to refuse.
    roundTrip('codex', 'user', {
      [`${home}/.codex/config.toml`]: '[mcp_servers]\n\n[mcp_servers.docs]\ncommand = "d"\n',
    });
  });

  it('Gemini CLI: the server and the BeforeTool hook in one settings.json with comments, round-tripped', () => {
    const file = `${home}/.gemini/settings.json`;
    const connected = roundTrip('gemini-cli', 'user', { [file]: geminiSettings });
    const plan = connect(disk({ [file]: geminiSettings }), 'gemini-cli');
    assert.equal(plan.files.length, 1);
    assert.deepEqual(plan.files[0]?.entries, [`fdref's MCP server`, `fdref's BeforeTool hook`]);
    const text = connected.get(file) ?? '';
    assert.match(text, /\/\/ my settings/);
    assert.match(text, /"--result-chars",\s*"32000"/);
    assert.match(text, /hook gemini-cli --store '\/gs\/store' --preview-chars 8000 --mcp/);
    roundTrip('gemini-cli', 'project', {});
  });

  it('Qwen Code: the server in settings.json and instructions in QWEN.md (its hooks cannot rewrite a command)', () => {
    const start = {
      [`${home}/.qwen/settings.json`]: '{\n  "security": { "auth": { "selectedType": "openai" } }\n}\n',
      [`${home}/.qwen/QWEN.md`]: '# My notes\n\nPrefer pnpm.\n',
    };
    const connected = roundTrip('qwen-code', 'user', start);
    assert.match(connected.get(`${home}/.qwen/QWEN.md`) ?? '', /run_command/);
    assert.match(connected.get(`${home}/.qwen/settings.json`) ?? '', /"--result-chars",\s*"24000"/);
    assert.match(connectAgentSummary('qwen-code').gets, /instructions: its own shell tool's long output is still cut/);
    roundTrip('qwen-code', 'project', {});
  });

  it("Qwen Code: fdref's tools go into tools.visible, merged into a list there, and come out exactly", () => {
    const file = `${home}/.qwen/settings.json`;
    const visible = (text: string | undefined): unknown =>
      (JSON.parse(text ?? '{}') as { tools?: { visible?: unknown } }).tools?.visible;
    // No list yet: Connect creates it with fdref's tools, Qwen Code's names for them.
    const created = roundTrip('qwen-code', 'user', { [file]: '{\n  "model": { "name": "m" }\n}\n' });
    const names = visible(created.get(file)) as string[];
    assert.ok(names.includes('mcp__fdref__run_command') && names.includes('mcp__fdref__read_fd'), String(names));
    assert.ok(names.every((name) => name.startsWith('mcp__fdref__')));
    // A list the user has: theirs stays first and whole, and comes back byte for byte.
    const start = `{\n  "tools": {\n    "visible": [\n      "mcp__other__x"\n    ],\n    "core": ["a"]\n  }\n}\n`;
    const merged = roundTrip('qwen-code', 'user', { [file]: start });
    const list = visible(merged.get(file)) as string[];
    assert.equal(list[0], 'mcp__other__x');
    assert.ok(list.includes('mcp__fdref__wait_command'));
    // A name of fdref's already listed is not doubled; Disconnect takes every fdref name out (they name only its tools).
    const listed = disk({ [file]: '{"tools":{"visible":["mcp__fdref__read_fd","b"]}}' });
    apply(listed, connect(listed, 'qwen-code'));
    assert.equal((visible(listed.get(file)) as string[]).filter((n) => n === 'mcp__fdref__read_fd').length, 1);
    apply(listed, disconnect(listed, 'qwen-code'));
    assert.equal(listed.get(file), '{"tools":{"visible":["b"]}}');
    // One-line files, a tools object without visible, CRLF and tabs.
    roundTrip('qwen-code', 'user', { [file]: '{"tools":{"visible":["a"]},"x":1}' });
    roundTrip('qwen-code', 'user', { [file]: '{"tools":{"core":["a"]}}' });
    roundTrip('qwen-code', 'project', {
      [`${workspace}/.qwen/settings.json`]: '{\r\n\t"tools": {\r\n\t\t"visible": ["a"]\r\n\t}\r\n}\r\n',
    });
    // Every tool the server offers, and no other.
    assert.deepEqual(
      [...FDREF_MCP_TOOLS].sort(),
      toolsOn('mcp')
        .map((tool) => tool.name)
        .sort(),
    );
    // Gemini CLI has no such list: it gets none.
    assert.equal(visible(connect(disk({}), 'gemini-cli').files[0]?.after), undefined);
    assert.throws(() => connect(disk({ [file]: '{"tools":{"visible":"all"}}' }), 'qwen-code'), AgentConfigError);
  });

  it('Cline: the server in its VS Code settings and an executable hook script; someone else’s script is refused', () => {
    const settings = `${locations.globalStorage}/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`;
    const script = `${home}/.cline/hooks/PreToolUse.sh`;
    roundTrip('cline', 'user', { [settings]: '{\n  "mcpServers": {}\n}\n' });
    const plan = connect(disk({}), 'cline');
    assert.equal(plan.files.find((file) => file.path === script)?.mode, 0o755);
    assert.match(plan.files.find((file) => file.path === script)?.after ?? '', /^#!\/bin\/sh\n/);
    const theirs = disk({ [script]: '#!/bin/sh\necho mine\n' });
    assert.throws(() => connect(theirs, 'cline'), /someone else's hook; fdref does not replace it/);
    assert.deepEqual(disconnect(theirs, 'cline').files, [], 'Disconnect leaves someone else’s script alone');
    const project = connect(disk({}), 'cline', 'project');
    assert.deepEqual(
      project.files.map((file) => file.path),
      [settings, `${workspace}/.cline/hooks/PreToolUse.sh`],
    );
  });

  it("Cline CLI: at user scope the server also in $CLINE_DIR/data/settings, in the CLI's own shape, round-tripped", () => {
    const extension = `${locations.globalStorage}/saoudrizwan.claude-dev/settings/cline_mcp_settings.json`;
    const cliFile = `${home}/.cline/data/settings/cline_mcp_settings.json`;
    // The extension's file exists (its empty mcpServers is kept); the CLI's is created, then deleted.
    const extensionStart = '{\n  "mcpServers": {}\n}\n';
    const connected = roundTrip('cline', 'user', { [extension]: extensionStart });
    const cliEntry = (JSON.parse(connected.get(cliFile) ?? '{}') as { mcpServers: Record<string, unknown> }).mcpServers[
      'fdref'
    ];
    assert.deepEqual(cliEntry, {
      transport: { type: 'stdio', command: '/usr/bin/node', args: [...launches.server.args, '--result-chars', '8000'] },
    });
    // The extension's file keeps the extension's shape.
    const extensionEntry = (JSON.parse(connected.get(extension) ?? '{}') as { mcpServers: Record<string, unknown> })
      .mcpServers['fdref'] as Record<string, unknown>;
    assert.equal(extensionEntry['type'], 'stdio');
    assert.equal(extensionEntry['transport'], undefined);
    // Another server of the user's, as `cline mcp add` writes them, stays byte for byte.
    const theirs = `{\n  "mcpServers": {\n    "other": {\n      "transport": {\n        "type": "stdio",\n        "command": "x"\n      }\n    }\n  }\n}`;
    roundTrip('cline', 'user', { [extension]: extensionStart, [cliFile]: theirs });
    // CLINE_DIR moves the CLI's folder, as it moves the hook's.
    const moved = { ...locations, clineDir: '/opt/cline' };
    const plan = connectPlan('cline', 'user', moved, launches, () => undefined);
    assert.ok(plan.files.some((file) => file.path === '/opt/cline/data/settings/cline_mcp_settings.json'));
    assert.ok(plan.files.some((file) => file.path === '/opt/cline/hooks/PreToolUse.sh'));
    assert.ok(!plan.files.some((file) => file.path === cliFile));
    // At project scope Cline CLI is not given the server (the user is told to connect at user scope).
    assert.ok(!connect(disk({}), 'cline', 'project').files.some((file) => file.path === cliFile));
    assert.ok(connect(disk({}), 'cline', 'project').notes.some((note) => /Cline CLI .* user scope/.test(note)));
  });

  it('VS Code Copilot: only its hook file (the extension gives it the server)', () => {
    const connected = roundTrip('copilot', 'project', {});
    assert.deepEqual([...connected.keys()], [`${workspace}/.github/hooks/fdref.json`]);
    assert.match(connected.get(`${workspace}/.github/hooks/fdref.json`) ?? '', /hook copilot .* --mcp/);
  });

  it('Continue: an item of mcpServers in config.yaml (kept YAML, the rest byte for byte) and a rule file', () => {
    const file = `${home}/.continue/config.yaml`;
    const connected = roundTrip('continue', 'user', { [file]: continueYaml });
    const config = yaml.load(connected.get(file) ?? '') as {
      mcpServers: { name: string; args: string[] }[];
      rules: string[];
    };
    assert.deepEqual(
      config.mcpServers.map((server) => server.name),
      ['fdref', 'sqlite'],
    );
    assert.deepEqual(config.mcpServers[0]?.args.slice(-2), ['--result-chars', '40000']);
    assert.deepEqual(config.rules, ['Be brief']);
    assert.match(connected.get(`${home}/.continue/rules/fdref.md`) ?? '', /run_command/);
    // A config.yaml without mcpServers gets one; none at all is created and deleted.
    const bare = roundTrip('continue', 'user', { [file]: 'name: a\nversion: 1.0.0\nschema: v1\n' });
    assert.equal((yaml.load(bare.get(file) ?? '') as { mcpServers: unknown[] }).mcpServers.length, 1);
    roundTrip('continue', 'user', {});
    const project = roundTrip('continue', 'project', {});
    const block = yaml.load(project.get(`${workspace}/.continue/mcpServers/fdref.yaml`) ?? '') as {
      mcpServers: unknown[];
    };
    assert.equal(block.mcpServers.length, 1);
    assert.throws(() => connect(disk({ [file]: 'mcpServers: []\n' }), 'continue'), /not a block list/);
  });

  it('Cursor: its mcp.json at either scope, and nothing else', () => {
    roundTrip('cursor', 'user', { [`${home}/.cursor/mcp.json`]: '{"mcpServers":{"a":{"command":"b"}}}' });
    assert.deepEqual(plannedPaths('cursor', 'project', locations), [`${workspace}/.cursor/mcp.json`]);
  });

  it('refuses a file fdref will not edit with a clear message, and plans nothing', () => {
    const files = disk({ [`${home}/.claude/settings.json`]: '{ "hooks": ' });
    assert.throws(
      () => connect(files, 'claude-code'),
      (error: unknown) =>
        error instanceof AgentConfigError &&
        /settings\.json is not valid JSON.*nothing was written/.test(error.message),
    );
    assert.throws(() => disconnect(disk({ [`${home}/.claude.json`]: '{ oops' }), 'claude-code'), AgentConfigError);
  });

  it('replaces an older fdref entry (another store, another install path) instead of adding a second', () => {
    const files = disk({ [`${home}/.codex/config.toml`]: codexToml });
    apply(files, connect(files, 'codex'));
    const moved = connectPlan(
      'codex',
      'user',
      locations,
      { ...launches, cli: { ...launches.cli, store: '/other' }, server: { ...launches.server, command: '/opt/node' } },
      (f) => files.get(f),
    );
    apply(files, moved);
    const toml = files.get(`${home}/.codex/config.toml`) ?? '';
    assert.equal(toml.split('[mcp_servers.fdref]').length, 2);
    assert.match(toml, /command = "\/opt\/node"/);
    apply(files, disconnect(files, 'codex'));
    assert.equal(files.get(`${home}/.codex/config.toml`), codexToml);
  });

  it('without the command-line tool (no Node on the PATH) an agent gets its server and no hook, and is told why', () => {
    const without = { ...launches, cli: { missing: 'fdref’s hooks need Node 20.9 or later on the PATH.' } };
    const plan = connectPlan('claude-code', 'user', locations, without, () => undefined);
    assert.deepEqual(
      plan.files.map((file) => file.path),
      [`${home}/.claude.json`],
    );
    assert.match(plan.notes[0] ?? '', /^No hook: fdref’s hooks need Node/);
    // Instructions need no tool: Qwen Code still gets them.
    const qwen = connectPlan('qwen-code', 'user', locations, without, () => undefined);
    assert.equal(qwen.files.length, 2);
    assert.ok(!qwen.notes.some((note) => note.startsWith('No hook')));
  });

  it('says which files held fdref’s entries before (Connect replaces them)', () => {
    const files = disk({ [`${home}/.gemini/settings.json`]: geminiSettings });
    assert.deepEqual(
      connect(files, 'gemini-cli').files.map((file) => file.hadFdref),
      [false],
    );
    apply(files, connect(files, 'gemini-cli'));
    const moved = connectPlan(
      'gemini-cli',
      'user',
      locations,
      { ...launches, cli: { ...launches.cli, store: '/x' } },
      (f) => files.get(f),
    );
    assert.deepEqual(
      moved.files.map((file) => file.hadFdref),
      [true],
    );
  });

  it('every agent has a summary for the picker and plans at both scopes', () => {
    for (const agent of CONNECT_AGENT_IDS) {
      assert.ok(connectAgentSummary(agent).gets.length > 0);
      for (const scope of ['user', 'project'] as const)
        assert.ok(plannedPaths(agent, scope, locations).length > 0, `${agent} ${scope}`);
      assert.deepEqual(
        plannedPaths(agent, 'project', { ...locations, workspace: undefined }).every((p) => !p.startsWith(workspace)),
        true,
      );
    }
    assert.equal(path.sep, '/');
  });
});
