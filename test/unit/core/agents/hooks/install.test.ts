import assert from 'node:assert/strict';
import fc from 'fast-check';
import { HOOK_AGENTS, hookAgent, installEdit, removeEdit } from '../../../../../src/core/agents/hooks/hookAgents';
import type { FileEdit, HookAgent } from '../../../../../src/core/agents/hooks/hookAgents';
import { mergeHookEntry, removeHookEntries } from '../../../../../src/core/agents/hooks/mergeHookEntry';
import { hookCommandLine, isFdrefHookCommand } from '../../../../../src/core/agents/hooks/wrapperCommand';
import { AgentConfigError } from '../../../../../src/core/agents/mergeServerEntry';

const LAUNCH = {
  node: '/usr/bin/node',
  cli: "/home/u/.config/Code/User/globalStorage/fdref.fdref/cli/fdref's cli.js",
  store: '/home/u/.config/Code/User/globalStorage/fdref.fdref/store/abc',
};
const hookCommand = (agent: HookAgent, cli = LAUNCH.cli) =>
  hookCommandLine({ ...LAUNCH, cli, agent: agent.id, previewChars: agent.previewChars, mcp: true });

function written(edit: FileEdit): string {
  assert.equal(edit.kind, 'write');
  return edit.kind === 'write' ? edit.text : '';
}

function install(agent: HookAgent, existing: string | undefined, cli?: string): string {
  const edit = installEdit(agent, existing, hookCommand(agent, cli), 'the file');
  return edit.kind === 'write' ? edit.text : (existing ?? '');
}

/** A user's Claude Code settings: permissions, an env, their own hooks for Bash and others. */
const CLAUDE_SETTINGS = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": ["Bash(npm test:*)", "Read(~/.zshrc)"],
    "deny": ["Bash(curl:*)"]
  },
  "env": { "CLAUDE_CODE_ENABLE_TELEMETRY": "0" },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "/home/u/bin/audit-bash.sh", "timeout": 5 }]
      }
    ],
    "PostToolUse": [
      { "matcher": "Edit|Write", "hooks": [{ "type": "command", "command": "npx prettier --write \\"$CLAUDE_FILE_PATHS\\"" }] }
    ]
  },
  "model": "opus"
}
`;

/** Gemini CLI settings with comments (it reads JSON with comments). */
const GEMINI_SETTINGS = `// my Gemini settings
{
\t"theme": "GitHub", // dark
\t"hooks": {
\t\t"BeforeTool": [
\t\t\t{ "matcher": "write_file|replace", "hooks": [{ "name": "security-check", "type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/security.sh", "timeout": 5000 }] }
\t\t]
\t},
\t"mcpServers": { "fdref": { "command": "node", "args": ["/x/mcp.js"] } }
}
`;

const CODEX_HOOKS = `{
    "hooks": {
        "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
    }
}
`;

describe("installing and removing fdref's hooks", () => {
  it('adds one matcher group to Claude Code settings, changing nothing else, and removal gives the file back byte for byte', () => {
    const agent = hookAgent('claude-code');
    const after = install(agent, CLAUDE_SETTINGS);
    const value = JSON.parse(after);
    assert.deepEqual(value.hooks.PreToolUse[1], {
      matcher: 'Bash',
      hooks: [{ type: 'command', command: hookCommand(agent), timeout: 10 }],
    });
    assert.deepEqual(value.hooks.PreToolUse[0], JSON.parse(CLAUDE_SETTINGS).hooks.PreToolUse[0]);
    assert.deepEqual({ ...value, hooks: undefined }, { ...JSON.parse(CLAUDE_SETTINGS), hooks: undefined });
    // Everything up to the end of the user's own group is as it was.
    assert.ok(after.startsWith(CLAUDE_SETTINGS.slice(0, CLAUDE_SETTINGS.indexOf('\n    ],\n    "PostToolUse"'))));
    assert.equal(written(removeEdit(agent, after, 'the file')), CLAUDE_SETTINGS);
  });

  it('installing again changes nothing; a newer path replaces the old entry in place of adding one', () => {
    const agent = hookAgent('claude-code');
    const once = install(agent, CLAUDE_SETTINGS);
    assert.deepEqual(installEdit(agent, once, hookCommand(agent), 'the file'), { kind: 'unchanged' });
    const moved = install(agent, once, '/elsewhere/cli.js');
    const groups = JSON.parse(moved).hooks.PreToolUse;
    assert.equal(groups.length, 2);
    assert.equal(groups[1].hooks[0].command, hookCommand(agent, '/elsewhere/cli.js'));
    assert.equal(written(removeEdit(agent, moved, 'the file')), CLAUDE_SETTINGS);
  });

  it('keeps comments, tabs and the other hooks of Gemini CLI settings; removal restores them exactly', () => {
    const agent = hookAgent('gemini-cli');
    const after = install(agent, GEMINI_SETTINGS);
    assert.ok(after.includes('// my Gemini settings') && after.includes('// dark'));
    assert.ok(after.includes('\n\t\t\t{\n\t\t\t\t"matcher": "^run_shell_command$"'), after);
    assert.equal(written(removeEdit(agent, after, 'the file')), GEMINI_SETTINGS);
  });

  it('writes Codex hooks.json in its own indentation, with a Bash matcher', () => {
    const agent = hookAgent('codex');
    const after = install(agent, CODEX_HOOKS);
    assert.deepEqual(JSON.parse(after).hooks.PreToolUse, [
      { matcher: '^Bash$', hooks: [{ type: 'command', command: hookCommand(agent), timeout: 10 }] },
    ]);
    assert.ok(after.includes('\n        "PreToolUse": ['));
    assert.equal(written(removeEdit(agent, after, 'the file')), CODEX_HOOKS);
  });

  it('creates a file that is not there; removing from it leaves no fdref entry (and deletes a file of fdref own)', () => {
    for (const agent of HOOK_AGENTS) {
      const created = written(installEdit(agent, undefined, hookCommand(agent), 'the file'));
      const removal = removeEdit(agent, created, 'the file');
      if (agent.install.kind === 'hooks-json' && !agent.install.ownFile) {
        assert.deepEqual(JSON.parse(written(removal)), {}, agent.id);
      } else {
        assert.deepEqual(removal, { kind: 'delete' }, agent.id);
      }
    }
  });

  it("removes only fdref's command from a group someone shares with it", () => {
    const agent = hookAgent('claude-code');
    const shared = JSON.stringify(
      {
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                { type: 'command', command: 'log.sh' },
                { type: 'command', command: hookCommand(agent) },
              ],
            },
          ],
        },
      },
      null,
      2,
    );
    const removed = JSON.parse(written(removeEdit(agent, shared, 'the file')));
    assert.deepEqual(removed, {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'log.sh' }] }] },
    });
  });

  it('leaves a file without fdref entries untouched, and refuses files it cannot read as the agent does', () => {
    const agent = hookAgent('claude-code');
    assert.deepEqual(removeEdit(agent, CLAUDE_SETTINGS, 'the file'), { kind: 'unchanged' });
    assert.deepEqual(removeEdit(agent, undefined, 'the file'), { kind: 'unchanged' });
    const refused = (text: string, pattern: RegExp) =>
      assert.throws(
        () => installEdit(agent, text, hookCommand(agent), '~/.claude/settings.json'),
        (error: unknown) => error instanceof AgentConfigError && pattern.test(error.message),
      );
    refused('{ "a": 1, }', /not valid JSON at line 1/);
    refused('// comment\n{}', /not valid JSON/);
    refused('[1]', /does not hold a JSON object/);
    refused('{ "hooks": [] }', /"hooks" is not an object/);
    refused('{ "hooks": { "PreToolUse": {} } }', /"hooks.PreToolUse" is not a list/);
  });

  it("Cline's hook script: written whole, replaced when fdref's, someone else's never overwritten, deleted on removal", () => {
    const agent = hookAgent('cline');
    const script = written(installEdit(agent, undefined, hookCommand(agent), 'PreToolUse.sh'));
    assert.ok(script.startsWith('#!/bin/sh\n'));
    assert.ok(script.endsWith(`\nexec ${hookCommand(agent)}\n`));
    assert.equal(
      written(installEdit(agent, script, hookCommand(agent, '/new/cli.js'), 'x')),
      script.replace(LAUNCH.cli.replace("'", "'\\''"), '/new/cli.js'),
    );
    assert.throws(
      () => installEdit(agent, '#!/bin/bash\necho mine\n', hookCommand(agent), '~/.cline/hooks/PreToolUse.sh'),
      (error: unknown) => error instanceof AgentConfigError && /someone else's hook/.test(error.message),
    );
    assert.deepEqual(removeEdit(agent, '#!/bin/bash\necho mine\n', 'x'), { kind: 'unchanged' });
    assert.deepEqual(removeEdit(agent, script, 'x'), { kind: 'delete' });
  });

  it("instructions (Qwen Code, Continue): fdref's block is appended to the user's text, replaced in place, and removed exactly", () => {
    const agent = hookAgent('qwen-code');
    const mine = '# Project notes\n\nUse pnpm, not npm.\n';
    const after = written(installEdit(agent, mine, hookCommand(agent), 'QWEN.md'));
    assert.ok(after.startsWith(mine) && after.includes('`run_command`') && after.includes('`read_fd`'));
    assert.deepEqual(installEdit(agent, after, hookCommand(agent), 'QWEN.md'), { kind: 'unchanged' });
    assert.equal(written(removeEdit(agent, after, 'QWEN.md')), mine);
    const edited = after + '\nMore notes of mine.\n';
    assert.equal(written(removeEdit(agent, edited, 'QWEN.md')), `${mine}\nMore notes of mine.\n`);
  });

  // Installing into `{"hooks": {}}` and into `{}` gives the same file, so removal cannot tell them apart: it takes out
  // an emptied `hooks` (or event list), which an install into a file without one added. Those inputs are left out.
  it('install then remove gives back any hooks configuration byte for byte (property)', () => {
    const agent = hookAgent('claude-code');
    const handler = fc.record({ type: fc.constant('command'), command: fc.string({ maxLength: 20 }) });
    const group = fc.record({
      matcher: fc.constantFrom('Bash', 'Edit|Write', '*'),
      hooks: fc.array(handler, { maxLength: 2 }),
    });
    const settings = fc.record(
      {
        model: fc.string({ maxLength: 8 }),
        hooks: fc.dictionary(
          fc.constantFrom('PreToolUse', 'PostToolUse', 'Stop'),
          fc.array(group, { minLength: 1, maxLength: 2 }),
          { minKeys: 1 },
        ),
        permissions: fc.record({ allow: fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }) }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(settings, fc.constantFrom(2, 4, '\t'), fc.boolean(), (value, indent, crlf) => {
        let text = `${JSON.stringify(value, null, indent)}\n`;
        if (crlf) text = text.replaceAll('\n', '\r\n');
        const after = install(agent, text);
        const hooks = JSON.parse(after).hooks.PreToolUse;
        assert.equal(hooks.filter((g: any) => isFdrefHookCommand(g.hooks?.[0]?.command)).length, 1);
        assert.equal(removeHookEntries({ existing: after, allowsComments: false, fileLabel: 'x' }).text, text);
      }),
    );
  });

  it('merging refuses to change anything but its entry (the check after every edit)', () => {
    const result = mergeHookEntry({
      existing: '{"hooks":{"PreToolUse":[]}}',
      event: 'PreToolUse',
      entry: { matcher: 'Bash', hooks: [{ type: 'command', command: "'n' 'c' hook codex --store 's'" }] },
      allowsComments: false,
      fileLabel: 'x',
    });
    assert.deepEqual(JSON.parse(result.text).hooks.PreToolUse.length, 1);
  });
});

describe("where fdref's hook files are", () => {
  const locations = { home: '/home/u', workspace: '/work/p' };
  it('at user and project scope, moved by the agents own folder variables', () => {
    const files = Object.fromEntries(
      HOOK_AGENTS.map((agent) => [agent.id, [agent.file('user', locations), agent.file('project', locations)]]),
    );
    assert.deepEqual(files, {
      'claude-code': ['/home/u/.claude/settings.json', '/work/p/.claude/settings.json'],
      codex: ['/home/u/.codex/hooks.json', '/work/p/.codex/hooks.json'],
      'gemini-cli': ['/home/u/.gemini/settings.json', '/work/p/.gemini/settings.json'],
      'qwen-code': ['/home/u/.qwen/QWEN.md', '/work/p/QWEN.md'],
      cline: ['/home/u/.cline/hooks/PreToolUse.sh', '/work/p/.cline/hooks/PreToolUse.sh'],
      copilot: ['/home/u/.copilot/hooks/fdref.json', '/work/p/.github/hooks/fdref.json'],
      continue: ['/home/u/.continue/rules/fdref.md', '/work/p/.continue/rules/fdref.md'],
    });
    const moved = { home: '/home/u', claudeConfigDir: '/c', codexHome: '/x', clineDir: '/l' };
    assert.equal(hookAgent('claude-code').file('user', moved), '/c/settings.json');
    assert.equal(hookAgent('codex').file('user', moved), '/x/hooks.json');
    assert.equal(hookAgent('cline').file('user', moved), '/l/hooks/PreToolUse.sh');
    assert.equal(hookAgent('codex').file('project', { home: '/home/u' }), undefined);
  });

  // The cuts measured in issue 24 (Codex, Cline, Qwen Code, Continue) or read in the source (Claude Code's 30K
  // inline limit, Gemini CLI's 40,000); VS Code's cut of run_in_terminal is not measured yet.
  it('every preview is well under its agent’s own cut of a tool result', () => {
    const cut: Record<string, number> = {
      'claude-code': 30000,
      codex: 10200,
      'gemini-cli': 40000,
      'qwen-code': 4500,
      cline: 8000,
      continue: 50000,
    };
    for (const agent of HOOK_AGENTS.filter((candidate) => candidate.id in cut))
      assert.ok(agent.previewChars <= 0.8 * (cut[agent.id] ?? 0), agent.id);
  });
});
