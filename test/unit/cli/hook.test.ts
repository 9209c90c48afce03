import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { runHook } from '../../../src/cli/hook';
import type { CliIo } from '../../../src/cli/subcommand';
import { hookAgent } from '../../../src/core/agents/hooks/hookAgents';
import { frontCommandLine, FRONT, wrapperCommandLine } from '../../../src/core/agents/hooks/wrapperCommand';
import {
  CLAUDE_CODE_BASH,
  CLINE_RUN_COMMANDS,
  CODEX_0_171_EXEC_COMMAND,
  CODEX_BASH,
  COPILOT_RUN_IN_TERMINAL,
  GEMINI_SHELL,
} from '../core/agents/hooks/payloads';
import { tempWorkspace } from '../support/tempWorkspace';

/**
 * The wrapper's place is taken by `/bin/sh` running a script that prints the arguments it gets, NUL-separated:
 * what the shell of the agent hands the wrapper when it runs the rewritten command.
 */
function argvPrinter(folder: string): { node: string; cli: string } {
  const cli = `${folder}/print args's "cli".sh`;
  writeFileSync(cli, 'printf \'%s\\0\' "$@"\n');
  chmodSync(cli, 0o755);
  return { node: '/bin/sh', cli };
}

/**
 * The arguments the wrapper gets when `/bin/sh -c` runs `commandLine`: `run …` for the Node wrapper's line. For the
 * front's (the hooks' line on Linux: `'/bin/sh' '<front file>' <node> <cli> <limit> <take's arguments>`), the file is
 * checked to hold the front and swapped for the printer, and the arguments come back as `run` and take's, once the
 * limit is checked to be the preview size.
 */
function wrapperArgs(commandLine: string): string[] {
  const quoted = `'[^']*'(?:\\\\''[^']*')*`;
  const front = new RegExp(`^'/bin/sh' (${quoted}) ${quoted} ${quoted} \\d+ `).exec(commandLine);
  if (front !== null) {
    const file = (front[1] as string).slice(1, -1).replace(/'\\''/g, "'");
    assert.equal(readFileSync(file, 'utf8'), FRONT);
  }
  const line =
    front === null
      ? commandLine
      : `'/bin/sh' -c 'printf "%s\\0" "$@"' front ${commandLine.slice(`'/bin/sh' ${front[1]} `.length)}`;
  const run = spawnSync('/bin/sh', ['-c', line], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const args = run.stdout.split('\0').slice(0, -1);
  if (front === null) return args;
  const [, , limit, ...take] = args;
  const previewChars = take[take.indexOf('--preview-chars') + 1];
  assert.equal(limit, take.includes('--preview-chars') ? previewChars : '8000');
  return ['run', ...take];
}

interface HookRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function hook(
  argv: readonly string[],
  stdin: NodeJS.ReadableStream,
  launch: { node: string; cli: string; platform?: NodeJS.Platform },
  limits?: { maxBytes: number; timeoutMs: number },
): Promise<HookRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const io: CliIo = { stdin, stdout, stderr, env: {}, cwd: '/' };
  const status = await runHook(argv, io, { platform: 'linux', ...launch }, limits);
  return { status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

const input = (payload: unknown): Readable => Readable.from([Buffer.from(JSON.stringify(payload))]);

describe('the hook sub-command', () => {
  let workspace: ReturnType<typeof tempWorkspace>;
  let launch: { node: string; cli: string };
  let store: string;
  beforeEach(() => {
    workspace = tempWorkspace();
    launch = argvPrinter(workspace.root);
    store = workspace.file("store 'a'");
    mkdirSync(store);
  });
  afterEach(() => workspace.dispose());

  it("rewrites Claude Code's Bash call so its shell runs the wrapper on the original command, with the conversation", async () => {
    const command = `grep -rn "TODO" src | sed 's/x/$HOME/' && echo \`date\` 'ünï'`;
    const payload = { ...CLAUDE_CODE_BASH, tool_input: { ...CLAUDE_CODE_BASH.tool_input, command } };
    const run = await hook(['claude-code', '--store', store, '--mcp'], input(payload), launch);
    assert.deepEqual([run.status, run.stderr], [0, '']);
    const answer = JSON.parse(run.stdout);
    const updated = answer.hookSpecificOutput.updatedInput;
    assert.equal(updated.description, 'Run the test suite');
    assert.ok(
      updated.command.startsWith(`'/bin/sh' '${store.replace(/'/g, `'\\''`)}/bin/front-`),
      'the shell front, on Linux, in the store',
    );
    assert.deepEqual(wrapperArgs(updated.command), [
      'run',
      '--store',
      store,
      '--agent',
      'claude-code',
      '--conversation',
      'abc123',
      '--preview-chars',
      String(hookAgent('claude-code').previewChars),
      '--mcp',
      '--',
      command,
    ]);
  });

  it("rewrites the exec_command call Codex 0.171 sends into the wrapper, with Codex's session and preview size", async () => {
    const run = await hook(['codex', '--store', store], input(CODEX_0_171_EXEC_COMMAND), launch);
    assert.deepEqual([run.status, run.stderr], [0, '']);
    const answer = JSON.parse(run.stdout);
    assert.equal(answer.hookSpecificOutput.permissionDecision, 'allow');
    const updated = answer.hookSpecificOutput.updatedInput;
    assert.deepEqual(Object.keys(updated), ['command']);
    assert.deepEqual(wrapperArgs(updated.command), [
      'run',
      '--store',
      store,
      '--agent',
      'codex',
      '--conversation',
      CODEX_0_171_EXEC_COMMAND.session_id,
      '--preview-chars',
      String(hookAgent('codex').previewChars),
      '--',
      CODEX_0_171_EXEC_COMMAND.tool_input.command,
    ]);
  });

  it('answers each agent in its own shape, and passes --preview-chars through', async () => {
    const cases: [string, unknown, (answer: any) => string[]][] = [
      ['codex', CODEX_BASH, (a) => [a.hookSpecificOutput.updatedInput.command]],
      ['gemini-cli', GEMINI_SHELL, (a) => [a.hookSpecificOutput.tool_input.command]],
      ['cline', CLINE_RUN_COMMANDS, (a) => a.overrideInput.commands],
      ['copilot', COPILOT_RUN_IN_TERMINAL, (a) => [a.hookSpecificOutput.updatedInput.command]],
    ];
    for (const [agent, payload, commandsOf] of cases) {
      const run = await hook([agent, `--store=${store}`, '--preview-chars', '1234'], input(payload), launch);
      const commands = commandsOf(JSON.parse(run.stdout));
      assert.ok(commands.length > 0, agent);
      for (const command of commands) {
        const args = wrapperArgs(command);
        assert.deepEqual(args.slice(0, 5), ['run', '--store', store, '--agent', agent], agent);
        assert.equal(args[args.indexOf('--preview-chars') + 1], '1234', agent);
        assert.ok(!args.includes('--mcp'), agent);
      }
    }
  });

  it('has no opinion (prints nothing, exits 0) whenever it cannot or should not rewrite', async () => {
    const silent = async (argv: string[], stdin: NodeJS.ReadableStream, why: string, at = launch) => {
      const run = await hook(argv, stdin, at, { maxBytes: 4096, timeoutMs: 200 });
      assert.deepEqual(run, { status: 0, stdout: '', stderr: '' }, why);
    };
    const bash = (command: string) => ({ ...CLAUDE_CODE_BASH, tool_input: { command } });
    await silent(['claude-code', '--store', store], input(bash('vim a.txt')), 'an interactive command');
    await silent(['claude-code', '--store', store], input(bash('make > build.log')), 'a redirected command');
    await silent(['claude-code', '--store', store], input({ ...CLAUDE_CODE_BASH, tool_name: 'Read' }), 'another tool');
    await silent(['claude-code', '--store', workspace.file('missing')], input(CLAUDE_CODE_BASH), 'no store');
    await silent(['claude-code'], input(CLAUDE_CODE_BASH), 'no --store');
    await silent(['claude-code', '--store', store], input(CLAUDE_CODE_BASH), 'no wrapper script', {
      ...launch,
      cli: workspace.file('gone.js'),
    });
    await silent(['claude-code', '--store', store, '--bogus'], input(CLAUDE_CODE_BASH), 'an unknown option');
    await silent(['claude-code', '--store', store, '--preview-chars', 'lots'], input(CLAUDE_CODE_BASH), 'a bad number');
    await silent(['nobody', '--store', store], input(CLAUDE_CODE_BASH), 'an unknown agent');
    await silent(['qwen-code', '--store', store], input(CLAUDE_CODE_BASH), 'an agent without a usable hook');
    await silent(['claude-code', '--store', store], Readable.from([Buffer.from('{"tool_name": "Bash", ')]), 'not JSON');
    await silent(['claude-code', '--store', store], Readable.from([Buffer.from([0xff, 0xfe])]), 'not UTF-8');
    const big = bash(`echo ${'x'.repeat(5000)}`);
    await silent(['claude-code', '--store', store], input(big), 'an input over the size bound');
    const neverEnds = new PassThrough();
    neverEnds.write(JSON.stringify(CLAUDE_CODE_BASH));
    await silent(['claude-code', '--store', store], neverEnds, 'an input that never ends');
  });

  it("leaves to Claude Code a command its settings' permission rules concern, and wraps the others", async () => {
    const home = workspace.file('home');
    mkdirSync(`${home}/.claude`, { recursive: true });
    writeFileSync(`${home}/.claude/settings.json`, JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } }));
    const run = async (command: string) => {
      const stdout = new PassThrough();
      const chunks: Buffer[] = [];
      stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
      const payload = { ...CLAUDE_CODE_BASH, cwd: workspace.root, tool_input: { command } };
      const io: CliIo = { stdin: input(payload), stdout, stderr: new PassThrough(), env: { HOME: home }, cwd: '/' };
      assert.equal(await runHook(['claude-code', '--store', store], io, { ...launch, platform: 'linux' }), 0);
      return Buffer.concat(chunks).toString();
    };
    assert.equal(await run('curl -s https://example.com'), '');
    assert.notEqual(await run('npm test'), '');
    mkdirSync(workspace.file('.claude'));
    writeFileSync(
      workspace.file('.claude/settings.local.json'),
      JSON.stringify({ permissions: { allow: ['Bash(npm test:*)'] } }),
    );
    assert.equal(await run('npm test'), '');
  });

  it('reads the store from FDREF_STORE when --store is not given', async () => {
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const io: CliIo = {
      stdin: input(CODEX_BASH),
      stdout,
      stderr: new PassThrough(),
      env: { FDREF_STORE: store },
      cwd: '/',
    };
    // Elsewhere than on Linux, the Node wrapper's line, and no front file.
    assert.equal(await runHook(['codex'], io, { ...launch, platform: 'darwin' }), 0);
    const command = JSON.parse(Buffer.concat(chunks).toString()).hookSpecificOutput.updatedInput.command;
    assert.equal(wrapperArgs(command)[2], store);
    assert.ok(command.includes(' run --store '), command);
    assert.equal(existsSync(path.join(store, 'bin')), false);
  });

  it('every rewritten command line, run by /bin/sh, hands the wrapper the original command unchanged (property)', () => {
    const awkward = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc
        .array(
          fc.constantFrom(
            "'",
            '"',
            '$',
            '`',
            '\\',
            '\n',
            '\r\n',
            '\t',
            ' ',
            '$(id)',
            "'\\''",
            '!',
            '*',
            '~',
            'é',
            '😀',
            '&&',
            ';',
            '#',
            '%s',
          ),
          {
            maxLength: 12,
          },
        )
        .map((parts) => parts.join('')),
    );
    const noNul = (text: string) => !text.includes('\0');
    const frontFile = workspace.file("front's.sh");
    writeFileSync(frontFile, FRONT);
    fc.assert(
      fc.property(awkward.filter(noNul), awkward.filter(noNul), fc.boolean(), (command, conversation, mcp) => {
        const options = { ...launch, store, agent: 'gemini-cli', conversation, previewChars: 8000, mcp } as const;
        for (const line of [wrapperCommandLine(options, command), frontCommandLine(options, command, frontFile)]) {
          const args = wrapperArgs(line);
          assert.equal(args.at(-1), command);
          assert.equal(args.at(-2), '--');
          assert.equal(args[args.indexOf('--conversation') + 1], conversation);
          assert.equal(args[2], store);
        }
      }),
      { numRuns: 150 },
    );
  });
});
