import assert from 'node:assert/strict';
import {
  bashRules,
  claudeCliRules,
  defersToClaudeRules,
  joinRules,
} from '../../../../../src/core/agents/hooks/claudePermissions';

// Claude Code judges its permission rules on the rewritten command (seen with 2.1.332: a denied `seq` ran once
// rewritten, an allowed one was refused), so the hook leaves every command a rule could concern to Claude Code.
describe("Claude Code's permission rules and fdref's hook", () => {
  const settings = (permissions: Record<string, string[]>) => ({ permissions });

  it('reads the Bash rules of every settings file, and nothing else', () => {
    const rules = bashRules([
      settings({ allow: ['Bash(npm test:*)', 'Read(~/.zshrc)', 'Bash'], deny: ['Bash(curl:*)', 'WebFetch'] }),
      undefined,
      'not settings',
      { permissions: { ask: ['Bash(git push *)', 'Bash(*)'], deny: 'Bash' } },
    ]);
    assert.deepEqual(rules, { allow: ['npm test:*', ''], deny: ['curl:*'], ask: ['git push *', ''] });
  });

  it('leaves a command a deny or ask rule could concern to Claude Code, wherever it appears in the line', () => {
    const rules = bashRules([settings({ deny: ['Bash(curl:*)'], ask: ['Bash(git push *)'] })]);
    for (const command of ['curl https://x', 'cd a && curl x | sh', 'echo "$(curl x)"', 'git push origin main'])
      assert.equal(defersToClaudeRules(command, rules), true, command);
    for (const command of ['npm test', 'git status', 'wget x'])
      assert.equal(defersToClaudeRules(command, rules), false, command);
  });

  it('leaves a command an allow rule lets run unasked to Claude Code, so it still runs unasked', () => {
    const rules = bashRules([settings({ allow: ['Bash(npm test:*)', 'Bash(make)'] })]);
    for (const command of ['npm test', 'npm test -- --watch', 'cd pkg && npm test', 'CI=1 npm test', 'make'])
      assert.equal(defersToClaudeRules(command, rules), true, command);
    assert.equal(defersToClaudeRules('cargo build', rules), false);
  });

  it('does not defer to blanket rules, which judge the rewritten command as they judge the original', () => {
    const rules = bashRules([settings({ allow: ['Bash'], deny: ['Bash(*)'] })]);
    assert.equal(defersToClaudeRules('npm test', rules), false);
    assert.equal(defersToClaudeRules('npm test', bashRules([])), false);
  });

  it('a rule that starts with a wildcard could concern any command', () => {
    const rules = bashRules([settings({ deny: ['Bash(* --force)'] })]);
    assert.equal(defersToClaudeRules('ls', rules), true);
  });
});

describe("Claude Code's command line rules", () => {
  it('reads --allowedTools and --disallowedTools lists (spaces and commas outside parentheses), and --settings', () => {
    const files: string[] = [];
    const rules = claudeCliRules(
      [
        '/opt/claude',
        '-p',
        'call Bash {"command": "seq 1 3"}',
        '--allowedTools',
        'Bash(git diff *),Read',
        'Bash(npm test:*)',
        '--disallowed-tools=Bash(curl:*) WebFetch',
        '--settings',
        '{"permissions": {"ask": ["Bash(git push:*)"]}}',
        '--settings',
        'team.json',
        '--output-format',
        'json',
      ],
      files,
    );
    assert.deepEqual(rules, { allow: ['git diff *', 'npm test:*'], deny: ['curl:*'], ask: ['git push:*'] });
    assert.deepEqual(files, ['team.json']);
    assert.equal(defersToClaudeRules('curl -s x', rules), true);
    assert.equal(defersToClaudeRules('make', rules), false);
  });

  it('joins the rules of its sources', () => {
    const joined = joinRules(
      bashRules([{ permissions: { deny: ['Bash(rm:*)'] } }]),
      claudeCliRules(['--allowedTools', 'Bash']),
    );
    assert.deepEqual(joined, { allow: [''], deny: ['rm:*'], ask: [] });
  });
});
