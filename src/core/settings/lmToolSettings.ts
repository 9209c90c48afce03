import { booleanSetting, settingsGroup, wholeNumberSetting } from './settingsReader';

/**
 * The most characters one language model tool result may hold. Copilot saves a result over 8,192 characters to a
 * file and makes the model read that instead, so the default and the maximum stay under it; below the minimum a
 * result could not even say where the rest is stored.
 */
export const MAX_RESULT_CHARS = { default: 8000, min: 1000, max: 8192 } as const;

/** `fdref.tools.*`: the language model tools VS Code's chat (Copilot) calls. */
export interface LmToolSettings {
  readonly maxResultChars: number;
}

export const LM_TOOL_SETTINGS = settingsGroup<LmToolSettings>('fdref.tools', {
  maxResultChars: wholeNumberSetting(
    'maxResultChars',
    MAX_RESULT_CHARS.default,
    MAX_RESULT_CHARS.min,
    MAX_RESULT_CHARS.max,
  ),
});

/** `fdref.mcp.*`: the MCP server as VS Code's own MCP client sees it. */
export interface McpSettings {
  /** Offer the server to VS Code's MCP client (1.101+); off, since Copilot would see every tool twice. */
  readonly registerWithVSCode: boolean;
}

export const MCP_SETTINGS = settingsGroup<McpSettings>('fdref.mcp', {
  registerWithVSCode: booleanSetting('registerWithVSCode', false),
});
