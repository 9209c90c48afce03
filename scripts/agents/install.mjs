// Installs the real MCP clients and agents the agent tests drive (the MCP Inspector, Claude Code, Codex, Gemini CLI,
// Qwen Code, Cline, Continue CLI) from npm into the cache folder the VS Code host uses (scripts/vscode-host/paths.mjs:
// FDREF_VSCODE_CACHE), once per version, with the Node 24 that folder already holds for code-server 4.139 (Claude
// Code and the Inspector need Node 22.19 or later, Qwen Code and Cline 22 or later; the others run on it too).
// Usage: node scripts/agents/install.mjs [inspector] [claude-code] [codex] [gemini-cli] [qwen-code] [cline] [continue]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { codeServerLayout, ensureNode, npmEnv, withCacheLock } from '../vscode-host/install.mjs';
import { cacheRoot } from '../vscode-host/paths.mjs';
import { VSCODE_BUILDS } from '../vscode-host/versions.mjs';

/** The clients, each pinned: a test against a moving target fails for reasons of its own. */
export const AGENT_TOOLS = {
  inspector: { package: '@modelcontextprotocol/inspector', version: '2.12.0', bin: 'mcp-inspector' },
  'claude-code': { package: '@anthropic-ai/claude-code', version: '2.1.330', bin: 'claude' },
  codex: { package: '@openai/codex', version: '0.171.0', bin: 'codex' },
  'gemini-cli': { package: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
  'qwen-code': { package: '@qwen-code/qwen-code', version: '0.24.4', bin: 'qwen' },
  cline: { package: 'cline', version: '3.0.65', bin: 'cline' },
  continue: { package: '@continuedev/cli', version: '1.5.47', bin: 'cn' },
};

/** @typedef {keyof typeof AGENT_TOOLS} AgentToolName */

/** @param {string} message */
function log(message) {
  console.log(`[agents] ${message}`);
}

/**
 * The Node 24 binary of the cache (installed from the npm package `node` when missing).
 * @returns {string}
 */
export function ensureNode24() {
  const build = VSCODE_BUILDS.find((candidate) => candidate.node === '24');
  if (!build) throw new Error('scripts/vscode-host/versions.mjs names no build that brings Node 24');
  const layout = codeServerLayout(build);
  withCacheLock(`node-${build.node}`, () => ensureNode(build, layout));
  return layout.node;
}

/**
 * Installs one client into `<cache>/<name>-<version>` unless it is there; returns the path of its executable and
 * the Node that runs it.
 * @param {AgentToolName} name
 * @returns {{ bin: string, node: string, root: string }}
 */
export function ensureAgentTool(name) {
  const tool = AGENT_TOOLS[name];
  const node = ensureNode24();
  const root = path.join(cacheRoot(), `${name}-${tool.version}`);
  const bin = path.join(root, 'node_modules', '.bin', tool.bin);
  const marker = path.join(root, '.installed');
  if (existsSync(marker) && existsSync(bin)) return { bin, node, root };
  withCacheLock(`${name}-${tool.version}`, () => {
    if (existsSync(marker) && existsSync(bin)) return; // another run installed it meanwhile
    log(`installing ${tool.package}@${tool.version} into ${root} (once)`);
    const staging = `${root}.partial`;
    rmSync(staging, { recursive: true, force: true });
    mkdirSync(staging, { recursive: true });
    writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ name: `fdref-${name}`, private: true }));
    const result = spawnSync('npm', ['install', '--no-save', `${tool.package}@${tool.version}`], {
      cwd: staging,
      stdio: 'inherit',
      env: npmEnv({ PATH: `${path.dirname(node)}${path.delimiter}${process.env['PATH'] ?? ''}` }),
    });
    if (result.status !== 0)
      throw new Error(`npm install ${tool.package}@${tool.version} failed (exit ${result.status ?? result.signal})`);
    if (!existsSync(path.join(staging, 'node_modules', '.bin', tool.bin)))
      throw new Error(`${tool.package}@${tool.version} installed without node_modules/.bin/${tool.bin}`);
    writeFileSync(path.join(staging, '.installed'), new Date().toISOString());
    rmSync(root, { recursive: true, force: true });
    renameSync(staging, root);
  });
  return { bin, node, root };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const wanted = process.argv.slice(2);
  for (const name of /** @type {AgentToolName[]} */ (Object.keys(AGENT_TOOLS))) {
    if (wanted.length === 0 || wanted.includes(name)) log(`${name}: ${ensureAgentTool(name).bin}`);
  }
}
