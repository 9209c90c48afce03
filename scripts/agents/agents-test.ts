// `npm run test:agents` (after claude-code-test.ts): every real agent, from npm, runs offline against the loopback
// model endpoint (test/support/modelEndpoint) with its OWN shell tool. The scripted model (the `shell` script) asks
// the agent's shell tool to run a command printing a 20,402-line build log with its one error at line 20,001; the
// harness then reads the agent's next request and records what the tool sent back to the model: its characters,
// and whether the error line, the first line and the last line are in it.
//
//   npx tsx scripts/agents/agents-test.ts [--agent NAME]... [--timeout SECONDS] [--report FILE.md]
//                                         [--connect MODULE [--before]] [--no-network] [--dump DIR]
//                                         [--workflow | --workflow-only] [--workflow-timeout SECONDS]
//                                         [--workflow-report FILE.md]
//
// `npm run test:agents` passes `--before --connect scripts/agents/connect-hooks.ts --workflow`: the "before" figures
// (no fdref), then every agent connected with Connect an Agent's own plan and checked, then the MCP workflow with
// Connect's own configuration. One agent, with Connect's configuration:
//   npx tsx scripts/agents/agents-test.ts --agent qwen-code --connect scripts/agents/connect-hooks.ts --workflow
//
// --dump DIR writes what each agent's shell tool sent to the model into DIR/<agent>.txt (and, with the workflow,
// each agent's requests to the endpoint into DIR/<agent>-workflow.json).
//
// --workflow then runs fdref's MCP workflow with every agent (scripts/agents/mcp-workflow.ts): fdref's MCP server
// configured in the agent's temporary HOME (with --connect, by the connector, i.e. Connect's own plan, Qwen Code's
// `tools.visible` included; without, by mcp-workflow.ts's `configureMcp`, as that agent's own commands and files
// would), the endpoint's `fd workflow` script runs a command that takes 75 s and prints along the way;
// `run_command` answers after the server's wait (45 s, under Continue's and Cline's 60 s) with a growing
// descriptor, the model calls `wait_command` until the command ends, then `search_fd` for the error line, `read_fd`
// for the tail and `fd_to_file`; the test checks the calls and results the model got (none an error, none a call the
// client gave up on), the file written and the store. --workflow-only skips the shell-output test. Each run is
// bounded (--workflow-timeout, default 300 s).
//
// --no-network runs the whole test in a network namespace of its own holding only loopback (`unshare -n`, as root),
// which proves the agents need nothing but the endpoint; otherwise proxy variables point what honours them at a
// dead port.
//
// Without --connect it measures (the "before" figures: no fdref hooks) and fails only when an agent cannot be run.
// With --connect MODULE, MODULE (a .ts/.mjs file) exports
//   connectAgent(agent: AgentName, target: ConnectTarget): Promise<{ env?: Record<string, string> } | void>
// which installs fdref's hooks and server configuration into the agent's temporary HOME before the run (as Connect an
// Agent would); the harness then checks that the tool result the model got holds an `fd:N` handle and the error line,
// and that the store folder it gave the connector holds the whole output in a descriptor. An agent Connect gives
// instructions instead of a hook (Qwen Code, Continue: their hooks cannot rewrite a command) is expected to miss
// these checks: its line says so (NO_HOOK) and it does not fail the run. --before first runs the same agents without
// fdref, for the figures to compare. The same is available to code as `runAgents({ connect })`.
//
// Agents run one at a time (each is CPU-heavy), with the cache's Node 24 first on PATH. Installs the agents into the
// cache folder once (scripts/agents/install.mjs; about 1.6 GB with Claude Code). Not in .ci/run because of that size.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { endMarked, newRunMarker } from '../../src/core/process/runMarker';
import { Store } from '../../src/core/store';
import { startModelEndpoint, type ModelEndpoint, type RecordedRequest } from '../../test/support/modelEndpoint';
import { SHELL_TOOLS } from '../../test/support/modelEndpoint/scenarios';
import { SERVER_NAME } from '../../src/core/agents/agentClients';
import { hookAgent } from '../../src/core/agents/hooks/hookAgents';
import { refreshLauncher } from '../../src/core/agents/launcher';
import { serverLaunch } from '../../src/core/agents/serverLaunch';
import {
  configureMcp,
  WORKFLOW_FILE,
  WORKFLOW_PROMPT,
  WORKFLOW_TOOLS,
  workflowFailures,
  workflowOutput,
} from './mcp-workflow';

const run = promisify(execFile);
const repo = path.resolve(__dirname, '..', '..');
const KEY = 'fdref-agents-test-key';

// ---- The build log --------------------------------------------------------------------------------------------

export const BUILD_LOG_LINES = 20_402;
export const ERROR_LINE_NUMBER = 20_001;
export const ERROR_LINE = "src/module_20001.c:17:5: error: use of undeclared identifier 'buffer_size'";
export const FIRST_LINE = 'build step 1/20402: compiled src/module_00001.c';
export const LAST_LINE = 'build finished: 20401 ok, 1 error';

/** The build log the command prints: 20,402 lines, the error at line 20,001, a summary last. */
export function buildLog(): string {
  const lines: string[] = [];
  for (let i = 1; i <= BUILD_LOG_LINES; i++) {
    if (i === ERROR_LINE_NUMBER) lines.push(ERROR_LINE);
    else if (i === BUILD_LOG_LINES) lines.push(LAST_LINE);
    else lines.push(`build step ${i}/${BUILD_LOG_LINES}: compiled src/module_${String(i).padStart(5, '0')}.c`);
  }
  return `${lines.join('\n')}\n`;
}

/** The same log as a shell script: what the agent's shell tool runs. */
export const BUILD_SCRIPT = `#!/bin/sh
# Prints a ${BUILD_LOG_LINES}-line build log with its one error at line ${ERROR_LINE_NUMBER} (fdref's agents test).
awk 'BEGIN { for (i = 1; i <= ${BUILD_LOG_LINES}; i++) { if (i == ${ERROR_LINE_NUMBER}) print "${ERROR_LINE.replace(/'/g, "'\\''")}"; else if (i == ${BUILD_LOG_LINES}) print "${LAST_LINE}"; else printf "build step %d/${BUILD_LOG_LINES}: compiled src/module_%05d.c\\n", i, i } }'
`;

// ---- The agents -----------------------------------------------------------------------------------------------

export type AgentName = 'claude-code' | 'codex' | 'gemini-cli' | 'qwen-code' | 'cline' | 'continue';

interface Installed {
  readonly bin: string;
  readonly node: string;
  readonly root: string;
}

/** Where one run happens: a temporary HOME, a workspace, the store folder the connector points fdref at. */
export interface ConnectTarget {
  readonly home: string;
  readonly workspace: string;
  readonly store: string;
  /** The environment the agent will run with (HOME and the endpoint's variables set). */
  readonly env: Readonly<Record<string, string>>;
}

export type Connector = (
  agent: AgentName,
  target: ConnectTarget,
) => Promise<{ env?: Record<string, string> } | undefined | void>;

interface RunPlan {
  readonly args: string[];
  readonly env: Record<string, string>;
}

interface AgentSpec {
  readonly name: AgentName;
  readonly label: string;
  /** The wire protocol it speaks to the endpoint. */
  readonly protocol: RecordedRequest['protocol'];
  /** Writes the agent's configuration into the temporary HOME; returns its command line and environment. */
  prepare(context: PrepareContext): Promise<RunPlan>;
}

interface PrepareContext {
  readonly installed: Installed;
  readonly home: string;
  readonly workspace: string;
  readonly endpoint: ModelEndpoint;
  readonly prompt: string;
  readonly timeoutSeconds: number;
  readonly env: Record<string, string>;
  /** The tools the agent may use without asking, where it has such a list (Claude Code); its shell tool otherwise. */
  readonly allowedTools?: readonly string[];
}

async function writeFile(file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
}

/** Gemini CLI's and Qwen Code's settings: no telemetry, no update checks, the folder trusted. */
function quietSettings(auth: string): string {
  return JSON.stringify(
    {
      security: { auth: { selectedType: auth }, folderTrust: { enabled: false } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    },
    null,
    2,
  );
}

const AGENTS: readonly AgentSpec[] = [
  {
    // ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY; `-p` with the Bash tool allowed (no --dangerously-skip-permissions:
    // Claude Code refuses it as root).
    name: 'claude-code',
    label: 'Claude Code',
    protocol: 'anthropic',
    prepare: async ({ endpoint, prompt, allowedTools }) => ({
      args: ['-p', prompt, '--output-format', 'json', '--allowedTools', ...(allowedTools ?? ['Bash'])],
      env: {
        ANTHROPIC_BASE_URL: endpoint.anthropicBaseUrl,
        ANTHROPIC_API_KEY: KEY,
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ENABLE_TOOL_SEARCH: 'false',
      },
    }),
  },
  {
    // A custom model provider in $CODEX_HOME/config.toml speaking the Responses API (Codex refuses wire_api "chat").
    name: 'codex',
    label: 'Codex',
    protocol: 'responses',
    prepare: async ({ home, endpoint, prompt }) => {
      const codexHome = path.join(home, '.codex');
      await writeFile(
        path.join(codexHome, 'config.toml'),
        [
          'model = "gpt-emulated"',
          'model_provider = "fdref_loopback"',
          'approval_policy = "never"',
          'sandbox_mode = "danger-full-access"',
          '',
          '[model_providers.fdref_loopback]',
          'name = "fdref loopback"',
          `base_url = ${JSON.stringify(endpoint.openaiBaseUrl)}`,
          'env_key = "FDREF_AGENTS_TEST_KEY"',
          'wire_api = "responses"',
          '',
        ].join('\n'),
      );
      return {
        args: ['exec', '--skip-git-repo-check', prompt],
        env: { CODEX_HOME: codexHome, FDREF_AGENTS_TEST_KEY: KEY },
      };
    },
  },
  {
    // GOOGLE_GEMINI_BASE_URL moves the Gemini API client; the auth in settings must be gemini-api-key (the
    // gateway auth the base URL implies is refused by validateAuthMethod in 0.61). --yolo approves the shell tool.
    name: 'gemini-cli',
    label: 'Gemini CLI',
    protocol: 'gemini',
    prepare: async ({ home, endpoint, prompt }) => {
      await writeFile(path.join(home, '.gemini', 'settings.json'), quietSettings('gemini-api-key'));
      return {
        args: ['-p', prompt, '-m', 'gemini-emulated-flash', '--yolo'],
        env: { GOOGLE_GEMINI_BASE_URL: endpoint.geminiBaseUrl, GEMINI_API_KEY: KEY },
      };
    },
  },
  {
    // OpenAI-compatible auth: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL, with `openai` chosen in settings.
    name: 'qwen-code',
    label: 'Qwen Code',
    protocol: 'openai',
    prepare: async ({ home, endpoint, prompt }) => {
      await writeFile(path.join(home, '.qwen', 'settings.json'), quietSettings('openai'));
      return {
        args: ['-p', prompt, '--yolo'],
        env: {
          OPENAI_BASE_URL: endpoint.openaiBaseUrl,
          OPENAI_API_KEY: KEY,
          OPENAI_MODEL: 'gpt-emulated',
          QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        },
      };
    },
  },
  {
    // `cline auth -p openai` configures the OpenAI-compatible provider in ~/.cline; a prompt runs in act mode with
    // auto-approval on by default.
    name: 'cline',
    label: 'Cline CLI',
    protocol: 'openai',
    prepare: async ({ installed, workspace, endpoint, prompt, timeoutSeconds, env }) => {
      const auth = ['auth', '-p', 'openai', '-k', KEY, '-m', 'gpt-emulated', '-b', endpoint.openaiBaseUrl];
      await run(installed.bin, auth, { env, cwd: workspace, timeout: 60_000 });
      return { args: ['--json', '-t', String(timeoutSeconds), prompt], env: {} };
    },
  },
  {
    // A config.yaml with one OpenAI model whose apiBase is the endpoint; --auto allows every tool.
    name: 'continue',
    label: 'Continue CLI',
    protocol: 'openai',
    prepare: async ({ home, endpoint, prompt }) => {
      const config = path.join(home, '.continue', 'config.yaml');
      await writeFile(
        config,
        [
          'name: fdref loopback',
          'version: 1.0.0',
          'schema: v1',
          'models:',
          '  - name: emulated',
          '    provider: openai',
          '    model: gpt-emulated',
          `    apiBase: ${endpoint.openaiBaseUrl}`,
          `    apiKey: ${KEY}`,
          '    roles: [chat, edit, apply]',
          '    capabilities: [tool_use]',
          '',
        ].join('\n'),
      );
      return {
        args: ['-p', '--auto', '--config', config, prompt],
        env: { CONTINUE_GLOBAL_DIR: path.join(home, '.continue') },
      };
    },
  },
];

// ---- Reading what reached the model ------------------------------------------------------------------------

export interface ToolResult {
  readonly tool: string;
  readonly content: string;
}

const textOf = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.map((part) => (isObject(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
  return JSON.stringify(value ?? null);
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every tool call (id to name) and result (call id, text) in one request, in each protocol's shape. */
export function callsAndResults(request: RecordedRequest): { calls: Map<string, string>; results: [string, string][] } {
  const calls = new Map<string, string>();
  const results: [string, string][] = [];
  const body = isObject(request.body) ? request.body : {};
  const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter(isObject) : []);
  switch (request.protocol) {
    case 'anthropic':
      for (const message of list(body['messages']))
        for (const block of list(message['content'])) {
          if (block['type'] === 'tool_use') calls.set(String(block['id']), String(block['name']));
          if (block['type'] === 'tool_result') results.push([String(block['tool_use_id']), textOf(block['content'])]);
        }
      break;
    case 'openai':
      for (const message of list(body['messages'])) {
        for (const call of list(message['tool_calls']))
          calls.set(String(call['id']), String(isObject(call['function']) ? call['function']['name'] : ''));
        if (message['role'] === 'tool') results.push([String(message['tool_call_id']), textOf(message['content'])]);
      }
      break;
    case 'responses':
      for (const item of list(body['input'])) {
        // A call of a namespaced tool (Codex's MCP tools) names its namespace apart: `mcp__fdref` + `run_command`.
        if (typeof item['type'] === 'string' && item['type'].endsWith('_call'))
          calls.set(
            String(item['call_id']),
            typeof item['namespace'] === 'string'
              ? `${item['namespace']}__${String(item['name'])}`
              : String(item['name']),
          );
        if (typeof item['type'] === 'string' && item['type'].endsWith('_call_output'))
          results.push([String(item['call_id']), textOf(item['output'])]);
      }
      break;
    case 'gemini':
      for (const content of list(body['contents']))
        for (const part of list(content['parts'])) {
          const call = part['functionCall'];
          // Without ids (older clients), a response answers the call of the same name.
          if (isObject(call)) calls.set(String(call['id'] ?? call['name']), String(call['name']));
          const response = part['functionResponse'];
          if (!isObject(response)) continue;
          const inner = response['response'];
          const output = isObject(inner) && typeof inner['output'] === 'string' ? inner['output'] : textOf(inner);
          results.push([String(response['id'] ?? response['name']), output]);
        }
      break;
  }
  return { calls, results };
}

/** The first result of a shell tool (one of SHELL_TOOLS) in the requests, i.e. what the agent's next request carried. */
export function shellResult(requests: readonly RecordedRequest[]): ToolResult | undefined {
  for (const request of requests) {
    const { calls, results } = callsAndResults(request);
    for (const [callId, content] of results) {
      const tool = calls.get(callId) ?? '';
      if (tool in SHELL_TOOLS) return { tool, content };
    }
  }
  return undefined;
}

// ---- One run ------------------------------------------------------------------------------------------------

export interface AgentOutcome {
  readonly agent: AgentName;
  readonly label: string;
  readonly version: string;
  /** Why the agent could not be measured, when it could not. */
  readonly problem?: string;
  readonly tool?: string;
  /** Characters of the shell tool's result in the model's next request. */
  readonly chars?: number;
  /** That result's text. */
  readonly result?: string;
  readonly errorSeen?: boolean;
  readonly headSeen?: boolean;
  readonly tailSeen?: boolean;
  /** A file named in the result that holds the whole output (where the agent kept it), if any. */
  readonly keptIn?: string;
  /** With a connector: the checks of fdref's hooks, each a failure message, empty when all passed. */
  readonly connectFailures?: readonly string[];
  readonly seconds: number;
}

interface RunOptions {
  readonly agents?: readonly AgentName[] | undefined;
  readonly timeoutSeconds?: number | undefined;
  readonly connect?: Connector | undefined;
  readonly log?: ((line: string) => void) | undefined;
  /** The MCP workflow: a folder to write each agent's requests to the endpoint into (`<agent>-workflow.json`). */
  readonly dump?: string | undefined;
}

/** The environment of the harness without anything that would point an agent elsewhere or at a real account. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(ANTHROPIC|OPENAI|GEMINI|GOOGLE|CLAUDE|CODEX|QWEN|CLINE|CONTINUE|XDG)_/.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/** The environment an agent runs with: the harness's, cleaned, with the temporary HOME and the cache's Node first. */
function agentEnv(installed: Installed, home: string): Record<string, string> {
  return {
    ...cleanEnv(),
    HOME: home,
    PATH: `${path.dirname(installed.node)}${path.delimiter}${process.env['PATH'] ?? ''}`,
    // Nothing leaves the machine: what honours a proxy gets a dead one; the endpoint is exempt.
    HTTPS_PROXY: 'http://127.0.0.1:9',
    HTTP_PROXY: 'http://127.0.0.1:9',
    NO_PROXY: '127.0.0.1,localhost',
  };
}

async function installAgent(name: AgentName): Promise<Installed & { version: string }> {
  const installer = path.join(repo, 'scripts', 'agents', 'install.mjs');
  const module = (await import(pathToFileURL(installer).href)) as {
    ensureAgentTool: (name: AgentName) => Installed;
    AGENT_TOOLS: Record<AgentName, { version: string }>;
  };
  return { ...module.ensureAgentTool(name), version: module.AGENT_TOOLS[name].version };
}

function runAgent(
  bin: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
  timeoutMs: number,
): Promise<{ code: number | null; timedOut: boolean; stdout: string; stderr: string }> {
  // Every process the agent starts carries the run's marker, so what it leaves behind outside its group (Cline CLI's
  // `--cline-hub-daemon`, which outlived its runs) is found and ended when the agent exits (the core's runMarker).
  const marker = newRunMarker();
  return new Promise<{ code: number | null; timedOut: boolean; stdout: string; stderr: string }>((resolve, reject) => {
    // Its own process group, so a timeout ends the agent and whatever it started.
    const child = spawn(bin, args, {
      cwd,
      env: { ...env, [marker.name]: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout = (stdout + data.toString('utf8')).slice(-200_000)));
    child.stderr.on('data', (data: Buffer) => (stderr = (stderr + data.toString('utf8')).slice(-200_000)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, stdout, stderr });
    });
  }).finally(async () => {
    await endMarked(marker, 0, 2_000);
  });
}

/** A file named in the tool result that holds the whole log (Claude Code, Gemini CLI and Qwen Code keep one). */
async function keptFile(content: string, log: string): Promise<string | undefined> {
  for (const match of content.matchAll(/(\/[^\s"'`<>()\\]+)/g)) {
    const candidate = match[1]?.replace(/[.,:;]+$/, '') ?? '';
    try {
      const stat = await fs.stat(candidate);
      if (!stat.isFile() || stat.size < log.length) continue;
      if ((await fs.readFile(candidate, 'utf8')).includes(log.trimEnd())) return candidate;
    } catch {
      // not a file
    }
  }
  return undefined;
}

/** `~/.claude/…/name.txt`: where under the temporary HOME, without the session ids between. */
function shortPath(relative: string): string {
  const parts = relative.split(path.sep);
  return parts.length <= 3 ? `~/${parts.join('/')}` : `~/${parts[0]}/…/${parts.at(-1)}`;
}

/** With fdref connected: the model's next request holds a handle and the error line; the store holds the log. */
export async function connectChecks(result: ToolResult | undefined, store: string, log: string): Promise<string[]> {
  const failures: string[] = [];
  if (result === undefined) return ['no shell tool result reached the model'];
  // What the model got instead (an agent's refusal, an error) says why: measured, Claude Code asking before a
  // `sh -c` script that removes files.
  if (!/\bfd:\d+/.test(result.content))
    failures.push(`the tool result holds no fd:N handle; it begins ${JSON.stringify(result.content.slice(0, 300))}`);
  if (!result.content.includes(ERROR_LINE)) failures.push('the tool result misses the error line');
  if (!existsSync(store)) return [...failures, `the store ${store} was not created`];
  const opened = await Store.open(store);
  try {
    const { sessions } = await opened.list();
    let whole = false;
    for (const session of sessions) {
      const reader = await opened.read(session.id);
      for (const descriptor of reader?.descriptors() ?? []) {
        if ((await descriptor.content.text()) === log) whole = true;
      }
    }
    if (!whole)
      failures.push(`no descriptor in the store (${sessions.length} session(s)) holds the whole output byte for byte`);
  } finally {
    await opened.close();
  }
  return failures;
}

/** Runs each agent in turn against one endpoint; returns what reached the model from its own shell tool. */
export async function runAgents(options: RunOptions = {}): Promise<AgentOutcome[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const timeoutSeconds = options.timeoutSeconds ?? 240;
  const wanted = options.agents ?? AGENTS.map((agent) => agent.name);
  const expected = buildLog();
  const endpoint = await startModelEndpoint({ apiKey: KEY });
  const outcomes: AgentOutcome[] = [];
  try {
    for (const spec of AGENTS.filter((agent) => wanted.includes(agent.name))) {
      const started = Date.now();
      let version = '?';
      const root = await fs.realpath(await fs.mkdtemp(path.join(tmpdir(), `fdref-agents-${spec.name}-`)));
      try {
        const installed = await installAgent(spec.name);
        version = installed.version;
        const home = path.join(root, 'home');
        const workspace = path.join(root, 'workspace');
        const store = path.join(root, 'store');
        await fs.mkdir(home, { recursive: true });
        await fs.mkdir(workspace, { recursive: true });
        const script = path.join(workspace, 'build.sh');
        await fs.writeFile(script, BUILD_SCRIPT, { mode: 0o755 });
        const printed = (await run('sh', [script], { maxBuffer: 8 * 1024 * 1024 })).stdout;
        if (printed !== expected) throw new Error(`${script} does not print the expected build log`);
        const env = agentEnv(installed, home);
        const plan = await spec.prepare({
          installed,
          home,
          workspace,
          endpoint,
          prompt: `shell sh ${script}`,
          timeoutSeconds,
          env,
        });
        let runEnv = { ...env, ...plan.env };
        if (options.connect !== undefined) {
          const added = await options.connect(spec.name, { home, workspace, store, env: runEnv });
          if (added?.env !== undefined) runEnv = { ...runEnv, ...added.env };
        }
        endpoint.clearRequests();
        log(`  ${spec.label} ${version}: running`);
        const outcome = await runAgent(installed.bin, plan.args, workspace, runEnv, timeoutSeconds * 1000);
        const requests = endpoint.requests.filter((request) => request.protocol === spec.protocol);
        const result = shellResult(requests);
        if (result === undefined) {
          const why = outcome.timedOut
            ? `no shell tool result reached the model within ${timeoutSeconds} s`
            : `exit ${outcome.code}, ${requests.length} request(s) to the ${spec.protocol} endpoint, no shell tool result`;
          outcomes.push({
            agent: spec.name,
            label: spec.label,
            version,
            problem: `cannot run offline: ${why}; stderr: ${outcome.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500)}`,
            seconds: (Date.now() - started) / 1000,
          });
          continue;
        }
        const keptIn = await keptFile(result.content, expected);
        outcomes.push({
          agent: spec.name,
          label: spec.label,
          version,
          tool: result.tool,
          chars: result.content.length,
          result: result.content,
          errorSeen: result.content.includes(ERROR_LINE),
          headSeen: result.content.includes(FIRST_LINE),
          tailSeen: result.content.includes(LAST_LINE),
          ...(keptIn === undefined ? {} : { keptIn: shortPath(path.relative(home, keptIn)) }),
          ...(options.connect === undefined ? {} : { connectFailures: await connectChecks(result, store, expected) }),
          seconds: (Date.now() - started) / 1000,
        });
      } catch (error) {
        outcomes.push({
          agent: spec.name,
          label: spec.label,
          version,
          problem: `could not run: ${error instanceof Error ? error.message : String(error)}`,
          seconds: (Date.now() - started) / 1000,
        });
      } finally {
        await fs.rm(root, { recursive: true, force: true });
      }
    }
  } finally {
    await endpoint.close();
  }
  return outcomes;
}

// ---- The MCP workflow ---------------------------------------------------------------------------------------

export interface WorkflowOutcome {
  readonly agent: AgentName;
  readonly label: string;
  readonly version: string;
  /** The tools called, as the agent named them, in order. */
  readonly calls: readonly string[];
  /** Why it did not pass; empty when it did. */
  readonly failures: readonly string[];
  readonly seconds: number;
}

/** The tool results of the request that carried the most of them (the whole conversation), in order. */
export function conversationResults(requests: readonly RecordedRequest[]): { name: string; content: string }[] {
  let best: { name: string; content: string }[] = [];
  for (const request of requests) {
    const { calls, results } = callsAndResults(request);
    if (results.length > best.length)
      best = results.map(([callId, content]) => ({ name: calls.get(callId) ?? '?', content }));
  }
  return best;
}

/**
 * Each agent with fdref's MCP server configured in its temporary HOME runs the `fd workflow` script on a command that
 * takes 75 s (mcp-workflow.ts); checks the calls and results the model got, the file written and the store.
 */
export async function runWorkflows(options: RunOptions = {}): Promise<WorkflowOutcome[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const timeoutSeconds = options.timeoutSeconds ?? 300;
  const wanted = options.agents ?? AGENTS.map((agent) => agent.name);
  const bundle = path.join(repo, 'dist', 'mcp.js');
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`);
  const expected = workflowOutput();
  const endpoint = await startModelEndpoint({ apiKey: KEY });
  const outcomes: WorkflowOutcome[] = [];
  try {
    for (const spec of AGENTS.filter((agent) => wanted.includes(agent.name))) {
      const started = Date.now();
      let version = '?';
      let calls: string[] = [];
      const failures: string[] = [];
      const root = await fs.realpath(await fs.mkdtemp(path.join(tmpdir(), `fdref-workflow-${spec.name}-`)));
      try {
        const installed = await installAgent(spec.name);
        version = installed.version;
        const home = path.join(root, 'home');
        const workspace = path.join(root, 'workspace');
        const store = path.join(root, 'store');
        await fs.mkdir(home, { recursive: true });
        await fs.mkdir(workspace, { recursive: true });
        const env = agentEnv(installed, home);
        const plan = await spec.prepare({
          installed,
          home,
          workspace,
          endpoint,
          prompt: WORKFLOW_PROMPT,
          timeoutSeconds,
          env,
          allowedTools: WORKFLOW_TOOLS.map((tool) => `mcp__${SERVER_NAME}__${tool}`),
        });
        const runEnv = { ...env, ...plan.env };
        const launcher = await refreshLauncher(bundle, path.join(root, 'globalStorage', 'mcp'));
        const launch = serverLaunch({
          runtime: { kind: 'node', path: installed.node },
          launcher: launcher.path,
          store,
          workspaces: [workspace],
        });
        let workflowEnv = runEnv;
        if (options.connect !== undefined) {
          // Connect's own configuration (its server entry, and for Qwen Code its tools.visible) instead of the
          // harness's: the workflow then checks what a connected user gets.
          const added = await options.connect(spec.name, { home, workspace, store, env: runEnv });
          if (added?.env !== undefined) workflowEnv = { ...runEnv, ...added.env };
        } else await configureMcp(spec.name, launch, { bin: installed.bin, home, workspace, env: runEnv });
        endpoint.clearRequests();
        log(`  ${spec.label} ${version}: running the MCP workflow`);
        const outcome = await runAgent(installed.bin, plan.args, workspace, workflowEnv, timeoutSeconds * 1000);
        const requests = endpoint.requests.filter((request) => request.protocol === spec.protocol);
        if (options.dump !== undefined)
          await writeFile(path.join(options.dump, `${spec.name}-workflow.json`), JSON.stringify(requests, null, 1));
        const results = conversationResults(requests);
        calls = results.map((result) => result.name);
        if (results.length === 0) {
          const offered = [...new Set(requests.flatMap((request) => offeredToolNames(request)))];
          failures.push(
            `no tool result reached the model (${outcome.timedOut ? `timed out after ${timeoutSeconds} s` : `exit ${outcome.code}`}, ` +
              `${requests.length} request(s); tools offered: ${offered.join(', ') || 'none'}); ` +
              `output: ${`${outcome.stdout}\n${outcome.stderr}`.trim().split('\n').slice(-4).join(' | ').slice(0, 600)}`,
          );
        } else failures.push(...workflowFailures(results));
        const written = await fs.readFile(path.join(workspace, WORKFLOW_FILE), 'utf8').catch(() => undefined);
        if (written !== expected)
          failures.push(
            written === undefined
              ? `${WORKFLOW_FILE} was not written`
              : `${WORKFLOW_FILE} differs from the command's output (${written.length} characters, not ${expected.length})`,
          );
        failures.push(...(await storeHolds(store, expected)));
        if (outcome.timedOut) failures.push(`the agent did not end within ${timeoutSeconds} s`);
      } catch (error) {
        failures.push(`could not run: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await fs.rm(root, { recursive: true, force: true });
      }
      outcomes.push({
        agent: spec.name,
        label: spec.label,
        version,
        calls,
        failures,
        seconds: (Date.now() - started) / 1000,
      });
    }
  } finally {
    await endpoint.close();
  }
  return outcomes;
}

/** The names of the tools a request offered, in each protocol's shape. */
function offeredToolNames(request: RecordedRequest): string[] {
  const body = isObject(request.body) ? request.body : {};
  const tools = Array.isArray(body['tools']) ? body['tools'].filter(isObject) : [];
  return tools.flatMap((tool): string[] => {
    if (typeof tool['name'] === 'string') return [tool['name']];
    if (isObject(tool['function']) && typeof tool['function']['name'] === 'string') return [tool['function']['name']];
    if (Array.isArray(tool['functionDeclarations']))
      return tool['functionDeclarations'].filter(isObject).map((declaration) => String(declaration['name']));
    return [];
  });
}

/** Failures unless a descriptor of the store holds `expected` whole. */
async function storeHolds(store: string, expected: string): Promise<string[]> {
  if (!existsSync(store)) return [`the store ${store} was not created`];
  const opened = await Store.open(store);
  try {
    const { sessions } = await opened.list();
    for (const session of sessions) {
      const reader = await opened.read(session.id);
      for (const descriptor of reader?.descriptors() ?? [])
        if ((await descriptor.content.text()) === expected) return [];
    }
    return [`no descriptor in the store (${sessions.length} session(s)) holds the command's whole output`];
  } finally {
    await opened.close();
  }
}

// ---- The report ---------------------------------------------------------------------------------------------

const yesNo = (value: boolean | undefined): string => (value === undefined ? '' : value ? 'yes' : 'no');

/** The outcomes as a Markdown table. */
export function reportTable(outcomes: readonly AgentOutcome[]): string {
  const rows = outcomes.map((outcome) =>
    outcome.problem !== undefined
      ? `| ${outcome.label} | ${outcome.version} | | ${outcome.problem.replace(/\|/g, '\\|')} | | | |`
      : `| ${outcome.label} | ${outcome.version} | \`${outcome.tool}\` | ${outcome.chars?.toLocaleString('en-US')} | ${yesNo(outcome.errorSeen)} | ${yesNo(outcome.headSeen)} / ${yesNo(outcome.tailSeen)} | ${outcome.keptIn ?? 'no'} |`,
  );
  return [
    `Command: a ${BUILD_LOG_LINES.toLocaleString('en-US')}-line build log (${buildLog().length.toLocaleString('en-US')} characters), its one error at line ${ERROR_LINE_NUMBER.toLocaleString('en-US')}.`,
    '',
    '| agent | version | shell tool | characters that reached the model | error line seen | head / tail seen | whole output kept in a file |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

function optionValues(name: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, i) => {
    if (arg === `--${name}` && process.argv[i + 1] !== undefined) values.push(process.argv[i + 1] ?? '');
  });
  return values;
}

/** Runs this script again inside `unshare -n` with loopback up; returns its exit status. */
function inOwnNetwork(): number {
  const args = process.argv.slice(1).filter((arg) => arg !== '--no-network');
  const result = spawnSync(
    'unshare',
    ['-n', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', process.execPath, ...process.execArgv, ...args],
    { stdio: 'inherit' },
  );
  if (result.error !== undefined) throw new Error(`unshare -n could not run: ${result.error.message}`);
  return result.status ?? 1;
}

async function main(): Promise<boolean> {
  if (process.argv.includes('--no-network')) return inOwnNetwork() === 0;
  const names = AGENTS.map((agent) => agent.name);
  const agents = optionValues('agent');
  const unknown = agents.find((name) => !names.includes(name as AgentName));
  if (unknown !== undefined) throw new Error(`unknown agent ${unknown}; known: ${names.join(', ')}`);
  const connectModule = optionValues('connect')[0];
  let connect: Connector | undefined;
  if (connectModule !== undefined) {
    const module = (await import(pathToFileURL(path.resolve(connectModule)).href)) as { connectAgent?: Connector };
    if (typeof module.connectAgent !== 'function') throw new Error(`${connectModule} exports no connectAgent`);
    connect = module.connectAgent;
  }
  const timeout = optionValues('timeout')[0];
  const selected = agents.length === 0 ? undefined : (agents as AgentName[]);
  const workflowOnly = process.argv.includes('--workflow-only');
  let failed = 0;
  let passed = 0;
  if (!workflowOnly && connect !== undefined && process.argv.includes('--before')) {
    // The "before" figures: the same agents without fdref. They fail only when an agent cannot be run.
    const before = await shellTest(selected, timeout, undefined);
    failed += before.failed;
    passed += before.passed;
  }
  if (!workflowOnly) {
    const shell = await shellTest(selected, timeout, connect);
    failed += shell.failed;
    passed += shell.passed;
  }
  if (workflowOnly || process.argv.includes('--workflow')) {
    console.log('\n  fdref’s MCP workflow (run, wait, search, tail, write) with a 75 s command');
    const outcomes = await runWorkflows({
      agents: selected,
      timeoutSeconds:
        optionValues('workflow-timeout')[0] === undefined ? undefined : Number(optionValues('workflow-timeout')[0]),
      log: (line) => console.log(`  ${line}`),
      dump: optionValues('dump')[0],
      connect,
    });
    for (const outcome of outcomes) {
      if (outcome.failures.length > 0) failed++;
      else passed++;
      console.log(
        `    ${outcome.failures.length === 0 ? '✔' : '✗'} ${outcome.label} ${outcome.version}: ${outcome.calls.join(', ') || 'no calls'} (${outcome.seconds.toFixed(0)} s)`,
      );
      for (const failure of outcome.failures) console.log(`      ${failure}`);
    }
    const table = workflowTable(outcomes);
    console.log(`\n${table}\n`);
    const report = optionValues('workflow-report')[0];
    if (report !== undefined) await writeFile(report, `${table}\n`);
  }
  console.log(`  ${passed} passing`);
  if (failed > 0) console.log(`  ${failed} failing`);
  return failed === 0;
}

/** The shell-output test: each agent's own shell tool on the build log; its table, dump and report. */
async function shellTest(
  agents: AgentName[] | undefined,
  timeout: string | undefined,
  connect: Connector | undefined,
): Promise<{ passed: number; failed: number }> {
  console.log(
    `\n  The agents’ own shell tools ${connect === undefined ? '(before: without fdref)' : 'with fdref connected'}`,
  );
  const outcomes = await runAgents({
    agents,
    timeoutSeconds: timeout === undefined ? undefined : Number(timeout),
    connect,
    log: (line) => console.log(`  ${line}`),
  });
  let failed = 0;
  for (const outcome of outcomes) {
    const failures = outcome.problem !== undefined ? [outcome.problem] : (outcome.connectFailures ?? []);
    // An agent without a usable hook is expected to miss the connected checks: not a failure, said plainly.
    const expectedMiss = outcome.problem === undefined && failures.length > 0 && hasNoHook(outcome.agent);
    if (failures.length > 0 && !expectedMiss) failed++;
    const figures =
      outcome.problem === undefined
        ? `: ${outcome.tool} sent ${outcome.chars} characters; error line ${yesNo(outcome.errorSeen)}, head ${yesNo(outcome.headSeen)}, tail ${yesNo(outcome.tailSeen)}`
        : '';
    console.log(
      `    ${failures.length === 0 ? '✔' : expectedMiss ? '-' : '✗'} ${outcome.label} ${outcome.version}${figures} (${outcome.seconds.toFixed(0)} s)`,
    );
    if (expectedMiss) console.log(`      ${NO_HOOK}`);
    else for (const failure of failures) console.log(`      ${failure}`);
  }
  const table = reportTable(outcomes);
  console.log(`\n${table}\n`);
  const dump = optionValues('dump')[0];
  if (dump !== undefined)
    for (const outcome of outcomes)
      if (outcome.result !== undefined) await writeFile(path.join(dump, `${outcome.agent}.txt`), outcome.result);
  const report = optionValues('report')[0];
  if (report !== undefined) await writeFile(report, `${table}\n`);
  return { passed: outcomes.length - failed, failed };
}

/** What the connected check says of an agent without a usable hook (Qwen Code, Continue): an expected miss. */
export const NO_HOOK = "no hook: its own shell tool's output is not caught; fdref's server and instructions installed";

/** Whether Connect gives `agent` instructions instead of a hook (its hooks cannot rewrite a command). */
export function hasNoHook(agent: AgentName): boolean {
  return hookAgent(agent).install.kind === 'instructions';
}

/** The MCP workflow's outcomes as a Markdown table. */
export function workflowTable(outcomes: readonly WorkflowOutcome[]): string {
  return [
    '| agent | version | tools called (as the agent names them) | result |',
    '|---|---|---|---|',
    ...outcomes.map(
      (outcome) =>
        `| ${outcome.label} | ${outcome.version} | ${outcome.calls.map((call) => `\`${call}\``).join(', ')} | ${
          outcome.failures.length === 0
            ? 'passed'
            : outcome.failures.join('; ').replace(/\|/g, '\\|').replace(/\n/g, ' ')
        } |`,
    ),
  ].join('\n');
}

if (require.main === module) {
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error: unknown) => {
      console.error(`The agents test could not run: ${error instanceof Error ? error.stack : String(error)}`);
      console.log('\n  0 passing\n  1 failing');
      process.exit(1);
    },
  );
}
