// `npm run test:agents`: a real agent, Claude Code from npm, runs offline against the loopback Anthropic endpoint
// (test/support/modelEndpoint, its `fd workflow` script) with fdref's MCP server configured the way
// `FD Refs: Connect an Agent...` configures it: the launcher copied into a storage folder and the core's
// `claude mcp add --scope user` command line, run with the real `claude` and a temporary HOME. The scripted model
// runs a command with a long output, searches it, reads its tail and writes it to a file through the server's tools;
// the test then checks the file in the workspace and the session the server left in the store. Installs Claude Code
// (about 360 MB) into the cache folder once. Not in .ci/run because of that size. Prints mocha-style results.
import { execFile, spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { agentClient, claudeCliCommands, SERVER_NAME } from '../../src/core/agents/agentClients';
import { refreshLauncher } from '../../src/core/agents/launcher';
import { serverLaunch, withResultChars } from '../../src/core/agents/serverLaunch';
import { Store } from '../../src/core/store';
import { startModelEndpoint, type ModelEndpoint } from '../../test/support/modelEndpoint';

const run = promisify(execFile);
const repo = path.resolve(__dirname, '..', '..');
const bundle = path.join(repo, 'dist', 'mcp.js');
const CLAUDE_TIMEOUT_MS = 180_000;

const COMMAND = 'seq 1 200000';
const SEARCH = '^15000[0-9]$';
const OUTPUT_FILE = 'out/numbers.txt';
const PROMPT = `fd workflow\nrun ${COMMAND}\nsearch ${SEARCH}\nwrite ${OUTPUT_FILE}`;
const TOOLS = ['run_command', 'search_fd', 'read_fd', 'fd_to_file'].map((tool) => `mcp__${SERVER_NAME}__${tool}`);

interface Installed {
  readonly bin: string;
  readonly node: string;
}

/** The installer is an ES module script outside the TypeScript project; load it by path. */
async function installClaudeCode(): Promise<Installed> {
  const installer = path.join(repo, 'scripts', 'agents', 'install.mjs');
  const module = (await import(installer)) as { ensureAgentTool: (name: 'claude-code') => Installed };
  return module.ensureAgentTool('claude-code');
}

/** `seq 1 n` as the command prints it. */
function expectedSeq(n: number): string {
  return Array.from({ length: n }, (_, i) => `${i + 1}\n`).join('');
}

/** What a tool sent back to the model, from the requests the endpoint received. */
function toolResults(endpoint: ModelEndpoint): { name: string; content: string; isError: boolean }[] {
  const names = new Map<string, string>();
  const results: { name: string; content: string; isError: boolean }[] = [];
  const seen = new Set<string>();
  for (const request of endpoint.requests) {
    const messages = (request.body as { messages?: { role: string; content: unknown }[] } | null)?.messages ?? [];
    for (const message of messages) {
      if (!Array.isArray(message.content)) continue;
      for (const block of message.content as Record<string, unknown>[]) {
        if (block['type'] === 'tool_use') names.set(String(block['id']), String(block['name']));
        if (block['type'] !== 'tool_result' || seen.has(String(block['tool_use_id']))) continue;
        seen.add(String(block['tool_use_id']));
        const content = block['content'];
        const text = Array.isArray(content)
          ? (content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('')
          : String(content);
        results.push({
          name: names.get(String(block['tool_use_id'])) ?? '?',
          content: text,
          isError: block['is_error'] === true,
        });
      }
    }
  }
  return results;
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function main(): Promise<boolean> {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`);
  const claude = await installClaudeCode();
  const root = await fs.realpath(await fs.mkdtemp(path.join(tmpdir(), 'fdref-claude-code-')));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'workspace');
  const store = path.join(root, 'store');
  await fs.mkdir(home);
  await fs.mkdir(workspace);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    PATH: `${path.dirname(claude.node)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  delete env['CLAUDE_CONFIG_DIR'];
  const endpoint = await startModelEndpoint({ apiKey: 'fdref-test-key' });

  console.log('\n  Claude Code with fdref’s MCP server');
  const results: boolean[] = [];
  const test = async (name: string, fn: () => Promise<void>): Promise<void> => {
    const started = Date.now();
    try {
      await fn();
      results.push(true);
      console.log(`    ✔ ${name} (${Date.now() - started}ms)`);
    } catch (error) {
      results.push(false);
      const message = error instanceof Error ? error.message : String(error);
      console.log(`    ✗ ${name}\n      ${message.replace(/\n/g, '\n      ')}`);
    }
  };

  try {
    await test('is configured by the Connect command’s claude mcp add line', async () => {
      const launcher = await refreshLauncher(bundle, path.join(root, 'globalStorage', 'mcp'));
      const launch = serverLaunch({
        runtime: { kind: 'node', path: process.execPath },
        launcher: launcher.path,
        store,
        workspaces: [workspace],
      });
      for (const args of claudeCliCommands(launch, false)) {
        await run(claude.bin, args, { env, cwd: workspace, timeout: 60_000 });
      }
      const config = JSON.parse(await fs.readFile(path.join(home, '.claude.json'), 'utf8')) as {
        mcpServers?: Record<string, { command: string; args: string[] }>;
      };
      const entry = config.mcpServers?.[SERVER_NAME];
      check(entry?.command === launch.command, `~/.claude.json has no fdref server: ${JSON.stringify(config)}`);
      // With Claude Code's result budget, as claudeCliCommands adds it.
      const args = withResultChars(launch, agentClient('claude').resultChars).args;
      check(JSON.stringify(entry.args) === JSON.stringify(args), `its arguments: ${entry.args.join(' ')}`);
    });

    let answer = '';
    await test('completes the scripted task through the fdref tools', async () => {
      const { code, stdout, stderr } = await runClaude(claude.bin, workspace, {
        ...env,
        ANTHROPIC_BASE_URL: endpoint.anthropicBaseUrl,
        ANTHROPIC_API_KEY: 'fdref-test-key',
        ENABLE_TOOL_SEARCH: 'false',
      });
      check(code === 0, `claude exited with ${code}:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
      const result = JSON.parse(stdout) as { is_error?: boolean; result?: string };
      answer = result.result ?? '';
      check(result.is_error !== true, `claude reported an error: ${stdout.slice(0, 2000)}`);
      check(answer.startsWith('The workflow is done.'), `the last answer: ${answer.slice(0, 1000)}`);
      const called = toolResults(endpoint);
      check(
        JSON.stringify(called.map((result) => result.name)) === JSON.stringify(TOOLS),
        `the tools called: ${called.map((result) => result.name).join(', ')}`,
      );
      const failed = called.find((result) => result.isError);
      check(failed === undefined, `${failed?.name} failed: ${failed?.content.slice(0, 500)}`);
      const [ran, searched, tail] = called;
      check(/fd="fd:1"/.test(ran?.content ?? ''), `run_command kept no fd:1: ${ran?.content.slice(0, 300)}`);
      for (const line of ['150000', '150005', '150009'])
        check(new RegExp(`\\b${line}\\b`).test(searched?.content ?? ''), `search_fd did not find ${line}`);
      check(/199998\n199999\n200000/.test(tail?.content ?? ''), `the tail read: ${tail?.content.slice(0, 300)}`);
    });

    await test('writes the whole output into the workspace with fd_to_file', async () => {
      const written = await fs.readFile(path.join(workspace, OUTPUT_FILE), 'utf8');
      const expected = expectedSeq(200_000);
      check(
        written.length === expected.length,
        `${OUTPUT_FILE} has ${written.length} characters, not ${expected.length}`,
      );
      check(written === expected, `${OUTPUT_FILE} differs from the output of ${COMMAND}`);
    });

    await test('leaves its session in the store, named after Claude Code, holding the output', async () => {
      const opened = await Store.open(store);
      try {
        const { sessions } = await opened.list();
        const session = sessions.find((candidate) => /claude/i.test(candidate.name));
        check(
          session !== undefined,
          `no session named after Claude Code: ${sessions.map((candidate) => candidate.name).join(', ')}`,
        );
        const reader = await opened.read(session.id);
        check(reader !== undefined, `session ${session.id} cannot be read`);
        const descriptor = reader.lookup('fd:1');
        check(descriptor !== undefined, 'the session has no fd:1');
        check(
          (await descriptor.content.text()) === expectedSeq(200_000),
          'fd:1 is not the whole output of the command',
        );
      } finally {
        await opened.close();
      }
    });
  } finally {
    await endpoint.close();
    await fs.rm(root, { recursive: true, force: true });
  }
  const failed = results.filter((ok) => !ok).length;
  console.log(`\n  ${results.length - failed} passing`);
  if (failed > 0) console.log(`  ${failed} failing`);
  return failed === 0;
}

/** `claude -p` with the workflow prompt, the fdref tools allowed, JSON output; killed after a time limit. */
function runClaude(
  bin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-p', PROMPT, '--output-format', 'json', '--allowedTools', ...TOOLS], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), CLAUDE_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: unknown) => {
    console.error(`The Claude Code test could not run: ${error instanceof Error ? error.stack : String(error)}`);
    console.log('\n  0 passing\n  1 failing');
    process.exit(1);
  },
);
