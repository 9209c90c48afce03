import assert from 'node:assert/strict';
import { codexHookHash, codexTrustTables } from '../../../scripts/agents/connect-hooks';

/**
 * The hashes Codex 0.171.0 itself reports for these handlers (`codex app-server`, `hooks/list`, each entry's
 * `currentHash`, the value its "Trust" writes as `trusted_hash`), with the hooks.json below in $CODEX_HOME.
 */
const FDREF = `'/usr/bin/node' '/home/me/.vscode/extensions/fdref/dist/cli.js' hook codex --store '/home/me/.fdref/store' --preview-chars 6000`;
const HOOKS_JSON = JSON.stringify({
  hooks: {
    PreToolUse: [
      { matcher: '^Bash$', hooks: [{ type: 'command', command: 'echo hi' }] },
      { matcher: '^Bash$', hooks: [{ type: 'command', command: FDREF, timeout: 10 }] },
      {
        matcher: '^Bash$',
        hooks: [{ type: 'command', command: "echo it's", timeout: 5, statusMessage: 'checking', async: false }],
      },
      { hooks: [{ type: 'command', command: 'echo any', timeout: 0 }] },
    ],
  },
});
const CODEX_0_171_HASHES = [
  'sha256:a21682d1d8bd642be06966a9f238a743ce8c0dc6568e86c606cb5874ced76cd3',
  'sha256:0a39680aa66732a853532048142483995a35ecfcb11adc6bb4254b2dd7bb69cc',
  'sha256:73dd7fc74d6c5bd69f80b503a760bf2a908996b9c785ae96dc162efa9e580cbf',
  'sha256:129f7466ee5abba01311335a2dc2289981888aca4fabb583e5afd371a6b6cd8b',
];

describe("the agents test's Codex hook trust (scripts/agents/connect-hooks.ts)", () => {
  const groups = JSON.parse(HOOKS_JSON).hooks.PreToolUse;

  it('hashes a handler as Codex 0.171 does: default and clamped timeouts, optional fields, no matcher', () => {
    assert.deepEqual(
      groups.map((group: any) => codexHookHash('pre_tool_use', group, group.hooks[0])),
      CODEX_0_171_HASHES,
    );
    assert.notEqual(
      codexHookHash('pre_tool_use', groups[1], { ...groups[1].hooks[0], command: `${FDREF} --mcp` }),
      CODEX_0_171_HASHES[1],
      'another command is another hook',
    );
  });

  it("trusts only fdref's handlers, keyed by the file, the event and the handler's place", () => {
    assert.deepEqual(codexTrustTables('/home/me/.codex/hooks.json', HOOKS_JSON), [
      '[hooks.state."/home/me/.codex/hooks.json:pre_tool_use:1:0"]\n' + `trusted_hash = "${CODEX_0_171_HASHES[1]}"\n`,
    ]);
    assert.deepEqual(codexTrustTables('/h/hooks.json', '{"hooks":{"Stop":[]}}'), []);
  });
});
