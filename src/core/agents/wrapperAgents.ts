/**
 * The agents fdref's command wrapper (`dist/cli.js run --agent <id>`) keeps shell output for, by the id hooks pass
 * in `--agent`, with the product name its sessions are named after. `terminal` is a person at a shell.
 */
export const WRAPPER_AGENTS = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  'qwen-code': 'Qwen Code',
  cline: 'Cline',
  copilot: 'GitHub Copilot',
  continue: 'Continue',
  terminal: 'Terminal',
} as const;

export type WrapperAgentId = keyof typeof WRAPPER_AGENTS;

export function isWrapperAgent(id: string): id is WrapperAgentId {
  return Object.hasOwn(WRAPPER_AGENTS, id);
}
