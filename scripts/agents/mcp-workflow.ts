// The MCP workflow of `npm run test:agents` (agents-test.ts --workflow): each real agent gets fdref's MCP server in
// its temporary HOME, configured where and how that agent reads its MCP servers, and the scripted model (the
// endpoint's `fd workflow` script) runs a command that takes 75 s and prints along the way. fdref's `run_command`
// answers after its wait (`--command-wait`, default 45 s, under the 60 s at which Continue and Cline give up on a
// call) with a growing descriptor; the model then calls `wait_command` until the command ends, `search_fd` for the
// error line, `read_fd` for the tail and `fd_to_file`. This file holds what is checked (pure, unit-tested in
// test/unit/scripts/agents-mcpWorkflow.test.ts) and how each agent is configured.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { claudeCliCommands, SERVER_NAME } from '../../src/core/agents/agentClients';
import { CLIENT_BUDGETS } from '../../src/core/agents/clientBudgets';
import { withResultChars, type ServerLaunch } from '../../src/core/agents/serverLaunch';
import { FDREF_MCP_TOOLS, mergeVisibleTools, qwenToolName } from '../../src/core/agents/visibleTools';
import { isRunningCommandResult, looksLikeToolError } from '../../test/support/modelEndpoint/scenarios';
import type { AgentName } from './agents-test';

const run = promisify(execFile);

/** 75 lines, one a second, then the error line: it outlasts the server's wait (45 s) and every client's 60 s. */
export const WORKFLOW_SECONDS = 75;
export const WORKFLOW_ERROR_LINE = 'ERROR: final line';
export const WORKFLOW_COMMAND = `for i in $(seq 1 ${WORKFLOW_SECONDS}); do echo line $i; sleep 1; done; echo ${WORKFLOW_ERROR_LINE}`;
export const WORKFLOW_SEARCH = '^ERROR:';
export const WORKFLOW_FILE = 'out/slow.txt';
export const WORKFLOW_PROMPT = `fd workflow\nrun ${WORKFLOW_COMMAND}\nsearch ${WORKFLOW_SEARCH}\nwrite ${WORKFLOW_FILE}`;

/** What the command prints. */
export function workflowOutput(): string {
  return `${Array.from({ length: WORKFLOW_SECONDS }, (_, i) => `line ${i + 1}\n`).join('')}${WORKFLOW_ERROR_LINE}\n`;
}

/** fdref's tools the workflow calls, by their names on the server. */
export const WORKFLOW_TOOLS = ['run_command', 'wait_command', 'search_fd', 'read_fd', 'fd_to_file'] as const;
export type WorkflowTool = (typeof WORKFLOW_TOOLS)[number];

/**
 * Which of fdref's tools an agent's tool name is: the plain name, or the name after the prefix the agent gives a
 * server's tools (`mcp__fdref__run_command` in Claude Code and Qwen Code, `fdref__run_command`, `mcp_fdref_run_command`).
 */
export function workflowToolOf(name: string): WorkflowTool | undefined {
  return WORKFLOW_TOOLS.find((tool) => name === tool || name.endsWith(`__${tool}`) || name.endsWith(`_${tool}`));
}

export interface WorkflowResult {
  /** The tool's name as the agent called it. */
  readonly name: string;
  readonly content: string;
}

/**
 * What went wrong in the tool results the model got, in order (empty when the workflow went as it should): the
 * command answered first with a running descriptor, `wait_command` until it ended with exit code 0, then search,
 * tail and write, none an error or a call the client gave up on.
 */
export function workflowFailures(results: readonly WorkflowResult[]): string[] {
  const failures: string[] = [];
  const tools = results.map((result) => workflowToolOf(result.name) ?? result.name);
  const sequence = tools.join(' ');
  if (!/^run_command( wait_command)+ search_fd read_fd fd_to_file$/.test(sequence))
    failures.push(
      `the calls were: ${sequence || 'none'}; wanted run_command, wait_command..., search_fd, read_fd, fd_to_file`,
    );
  for (const result of results) {
    if (looksLikeToolError(result.content) || gaveUp(result.content))
      failures.push(`${result.name} failed: ${result.content.slice(0, 300)}`);
  }
  const first = results[0];
  if (first !== undefined && !isRunningCommandResult(first.content))
    failures.push(`run_command did not answer with a running descriptor: ${first.content.slice(0, 300)}`);
  const ending = results.find((result, i) => i > 0 && !isRunningCommandResult(result.content));
  if (
    ending !== undefined &&
    workflowToolOf(ending.name) === 'wait_command' &&
    !/exit_code=\\?"0\\?"/.test(ending.content)
  )
    failures.push(`wait_command did not end with exit code 0: ${ending.content.slice(0, 300)}`);
  const byTool = (tool: WorkflowTool): WorkflowResult | undefined =>
    results.find((result) => workflowToolOf(result.name) === tool);
  const searched = byTool('search_fd');
  if (searched !== undefined && !searched.content.includes(WORKFLOW_ERROR_LINE))
    failures.push(`search_fd did not find "${WORKFLOW_ERROR_LINE}": ${searched.content.slice(0, 300)}`);
  const tail = byTool('read_fd');
  if (
    tail !== undefined &&
    !(tail.content.includes(`line ${WORKFLOW_SECONDS}`) && tail.content.includes(WORKFLOW_ERROR_LINE))
  )
    failures.push(`read_fd's tail misses the last lines: ${tail.content.slice(0, 300)}`);
  return failures;
}

/** Whether a result is a client's own time-out or cancellation rather than fdref's answer. */
function gaveUp(content: string): boolean {
  return /\btimed out\b|\btimeout\b.*\b(exceeded|error)\b|MCP error -3200[01]|request (was )?(aborted|cancelled)/i.test(
    content,
  );
}

// ---- Configuring each agent -------------------------------------------------------------------------------

/** The budget label (clientBudgets.ts) of each agent. */
const BUDGET_LABEL: Record<AgentName, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  'qwen-code': 'Qwen Code',
  cline: 'Cline',
  continue: 'Continue',
};

/** The server's command line for one agent, with that agent's `--result-chars`. */
export function launchFor(agent: AgentName, launch: ServerLaunch): ServerLaunch {
  return withResultChars(launch, CLIENT_BUDGETS.find((budget) => budget.label === BUDGET_LABEL[agent])?.resultChars);
}

/** Codex's `[mcp_servers.fdref]` table (config.toml); TOML basic strings are JSON's for these paths. */
export function codexServerTable(launch: ServerLaunch): string {
  const env = Object.entries(launch.env);
  return [
    `[mcp_servers.${SERVER_NAME}]`,
    `command = ${JSON.stringify(launch.command)}`,
    `args = [${launch.args.map((arg) => JSON.stringify(arg)).join(', ')}]`,
    ...(env.length === 0
      ? []
      : [`env = { ${env.map(([name, value]) => `${name} = ${JSON.stringify(value)}`).join(', ')} }`]),
    '',
  ].join('\n');
}

/** Continue's `mcpServers` list in config.yaml (JSON strings are YAML flow scalars). */
export function continueServerYaml(launch: ServerLaunch): string {
  const env = Object.entries(launch.env);
  return [
    'mcpServers:',
    `  - name: ${SERVER_NAME}`,
    `    command: ${JSON.stringify(launch.command)}`,
    `    args: [${launch.args.map((arg) => JSON.stringify(arg)).join(', ')}]`,
    ...(env.length === 0 ? [] : [`    env: { ${env.map(([n, v]) => `${n}: ${JSON.stringify(v)}`).join(', ')} }`]),
    '',
  ].join('\n');
}

export interface McpTarget {
  readonly bin: string;
  readonly home: string;
  readonly workspace: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Configures fdref's server for `agent` in its temporary HOME (after the agent's model configuration is written):
 * Claude Code and Cline with their own command lines (`claude mcp add`, `cline mcp add --yes`), the others by
 * adding the entry to the file each reads (Codex `$CODEX_HOME/config.toml`, Gemini CLI `~/.gemini/settings.json`,
 * Qwen Code `~/.qwen/settings.json`, Continue `~/.continue/config.yaml`).
 */
export async function configureMcp(agent: AgentName, launch: ServerLaunch, target: McpTarget): Promise<void> {
  const own = launchFor(agent, launch);
  const options = { env: target.env, cwd: target.workspace, timeout: 60_000 };
  switch (agent) {
    case 'claude-code':
      // claudeCliCommands adds Claude Code's --result-chars itself.
      for (const args of claudeCliCommands(launch, false)) await run(target.bin, args, options);
      return;
    case 'cline':
      await run(target.bin, ['mcp', 'add', '--yes', SERVER_NAME, '--', own.command, ...own.args], options);
      return;
    case 'codex': {
      const config = path.join(target.env['CODEX_HOME'] ?? path.join(target.home, '.codex'), 'config.toml');
      await fs.appendFile(config, `\n${codexServerTable(own)}`);
      return;
    }
    case 'gemini-cli':
    case 'qwen-code': {
      const file = path.join(target.home, agent === 'gemini-cli' ? '.gemini' : '.qwen', 'settings.json');
      const settings = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
      const entry = {
        command: own.command,
        args: [...own.args],
        ...(Object.keys(own.env).length ? { env: own.env } : {}),
      };
      settings['mcpServers'] = { [SERVER_NAME]: { ...entry, trust: true } };
      const text = JSON.stringify(settings, null, 2);
      // Qwen Code defers MCP tools behind its tool_search / tool_call bridge: the model sees only those two until it
      // searches. `tools.visible` declares fdref's tools up front, as Connect writes it (src/core/agents/visibleTools.ts).
      await fs.writeFile(
        file,
        agent === 'qwen-code' ? mergeVisibleTools(text, FDREF_MCP_TOOLS.map(qwenToolName), true, file) : text,
      );
      return;
    }
    case 'continue': {
      const file = path.join(target.home, '.continue', 'config.yaml');
      await fs.appendFile(file, continueServerYaml(own));
      return;
    }
  }
}
