/**
 * fdref's MCP server for VS Code's own MCP client (VS Code 1.101+, `lm.registerMcpServerDefinitionProvider`), behind
 * `fdref.mcp.registerWithVSCode` (off: Copilot would see every tool twice, as a language model tool and as an MCP
 * tool). The server is started exactly as Connect an Agent configures it. The API is newer than the
 * `@types/vscode` fdref builds against, so the few types used are declared here and the API is looked for at runtime.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import type { UserMessages } from '../common/userMessages';
import { WatchedSettings } from '../common/watchedSettings';
import type { ServerLaunch } from '../core/agents/serverLaunch';
import { MCP_SETTINGS } from '../core/settings/lmToolSettings';

/** The provider id, as `contributes.mcpServerDefinitionProviders` declares it. */
export const MCP_PROVIDER_ID = 'fdref';
/** What VS Code shows the server as. */
export const MCP_SERVER_LABEL = 'FD Refs';

/** `vscode.McpStdioServerDefinition` (1.101). */
type StdioDefinitionClass = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => { cwd?: vscode.Uri };

/** `vscode.McpServerDefinitionProvider` (1.101). */
interface McpServerDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions?: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): vscode.ProviderResult<object[]>;
}

interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpServerDefinitionProvider): vscode.Disposable;
}

/** What the integration tests reach. */
export interface FdrefMcpServerProvider {
  /** Whether this VS Code has the API (1.101+). */
  readonly available: boolean;
  /** The definitions VS Code gets now (none while the setting is off). */
  definitions(): Promise<readonly object[]>;
}

export function registerMcpServerProvider(
  context: vscode.ExtensionContext,
  deps: {
    /** How Connect an Agent starts the server (it builds the window's objects: the store folder is the registry's). */
    readonly launch: () => Promise<ServerLaunch>;
    readonly messages: UserMessages;
  },
): FdrefMcpServerProvider {
  const lm = vscode.lm as unknown as Partial<McpApi>;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: StdioDefinitionClass })
    .McpStdioServerDefinition;
  const settings = new WatchedSettings(MCP_SETTINGS, deps.messages);
  context.subscriptions.push(settings);
  const unavailable = (): FdrefMcpServerProvider => {
    if (settings.settings.registerWithVSCode) {
      deps.messages.log.warn(
        `fdref.mcp.registerWithVSCode is on, but VS Code ${vscode.version} cannot take MCP servers from extensions ` +
          '(1.101 or later can); connect an agent instead.',
      );
    }
    return { available: false, definitions: () => Promise.resolve([]) };
  };
  // 1.100 has a proposed function of the same name that throws for this manifest: the stable API came in 1.101.
  if (
    !atLeast(vscode.version, 1, 101) ||
    typeof lm.registerMcpServerDefinitionProvider !== 'function' ||
    Definition === undefined
  )
    return unavailable();
  const changed = new vscode.EventEmitter<void>();
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(MCP_SETTINGS.section)) changed.fire();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
  );
  const declared = (context.extension.packageJSON as { version?: unknown }).version;
  const version = typeof declared === 'string' ? declared : '0';
  const definitions = async (): Promise<object[]> => {
    // The server runs commands and writes files: only in a trusted workspace, as Connect an Agent.
    if (!settings.settings.registerWithVSCode || !vscode.workspace.isTrusted) return [];
    try {
      const launch = await deps.launch();
      const definition = new Definition(MCP_SERVER_LABEL, launch.command, [...launch.args], { ...launch.env }, version);
      const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
      if (folder !== undefined) definition.cwd = folder.uri;
      return [definition];
    } catch (error) {
      deps.messages.log.error(`FD Refs could not offer its MCP server to VS Code: ${errorMessage(error)}`);
      return [];
    }
  };
  try {
    context.subscriptions.push(
      lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: changed.event,
        provideMcpServerDefinitions: definitions,
      }),
    );
  } catch (error) {
    deps.messages.log.error(`FD Refs could not register its MCP server with VS Code: ${errorMessage(error)}`);
    return unavailable();
  }
  return { available: true, definitions };
}

/** Whether `version` (`1.139.1`, `1.101.0-insider`) is at least `major.minor`. */
function atLeast(version: string, major: number, minor: number): boolean {
  const [have, haveMinor] = version.split('.').map((part) => Number.parseInt(part, 10));
  if (have === undefined || haveMinor === undefined || Number.isNaN(have) || Number.isNaN(haveMinor)) return false;
  return have > major || (have === major && haveMinor >= minor);
}
