/**
 * fdref's tools for VS Code's chat (Copilot's agent mode, any chat participant): `vscode.lm.registerTool` for each
 * of `contributes.languageModelTools`, registered at activation (src/activation/lazyChat.ts) and built here with the
 * window's objects on the first call; the store is read then.
 */
import * as vscode from 'vscode';
import { shownPath } from '../common/workspacePaths';
import { WatchedSettings } from '../common/watchedSettings';
import type { UserMessages } from '../common/userMessages';
import { escapeMarkdown } from '../core/presentation/markdown';
import { LM_TOOL_SETTINGS, MAX_RESULT_CHARS } from '../core/settings/lmToolSettings';
import { ToolError } from '../core/toolError';
import { untrustedError, writesOutside, type ToolRecord } from '../core/tools/toolRecord';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import { CopilotSessions } from './copilotSessions';
import { LM_TOOLS } from './lmToolNames';
import { invocationMessage } from './invocationMessage';
import { LmToolRunner, type WritePlan } from './lmToolRunner';

export interface LanguageModelToolsDeps {
  readonly registry: SessionRegistry;
  readonly writer: WorkspaceWriter;
  readonly messages: UserMessages;
}

/** What the integration tests reach: each registered tool object, and this window's tools session. */
export interface FdrefLanguageModelTools {
  /** The tool registered as `name` (`fdref_read_fd`), to call `prepareInvocation` on directly. */
  tool(name: string): vscode.LanguageModelTool<unknown> | undefined;
  /** The registered tool's own `prepareInvocation` (VS Code shows no confirmation outside a chat request). */
  prepare(name: string, input: unknown): Promise<vscode.PreparedToolInvocation | null | undefined>;
  /** The id of this window's tools session, once a tool wrote to it. */
  readonly sessionId: string | undefined;
}

export function registerLanguageModelTools(
  context: vscode.ExtensionContext,
  deps: LanguageModelToolsDeps,
): FdrefLanguageModelTools {
  const settings = new WatchedSettings(LM_TOOL_SETTINGS, deps.messages);
  context.subscriptions.push(settings);
  const sessions = new CopilotSessions(deps.registry);
  context.subscriptions.push(sessions);
  const runner = new LmToolRunner(sessions, deps.writer, MAX_RESULT_CHARS.min, deps.registry.search.port(undefined));
  const tools = new Map<string, vscode.LanguageModelTool<unknown>>();
  for (const { name, record } of LM_TOOLS) {
    const tool = writesOutside(record) ? writeTool(record, runner, settings) : readTool(record, runner, settings);
    tools.set(name, tool);
  }
  return {
    tool: (name) => tools.get(name),
    prepare: async (name, input) =>
      tools.get(name)?.prepareInvocation?.({ input }, new vscode.CancellationTokenSource().token),
    get sessionId() {
      return sessions.ownId;
    },
  };
}

function result(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function budget(
  options: vscode.LanguageModelToolInvocationOptions<unknown>,
  settings: WatchedSettings<{ maxResultChars: number }>,
): Parameters<LmToolRunner['run']>[2] {
  const tokens = options.tokenizationOptions;
  return {
    maxChars: settings.settings.maxResultChars,
    ...(tokens === undefined
      ? {}
      : { tokenBudget: tokens.tokenBudget, countTokens: (text: string) => tokens.countTokens(text) }),
  };
}

function readTool(
  record: ToolRecord,
  runner: LmToolRunner,
  settings: WatchedSettings<{ maxResultChars: number }>,
): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: (options) => ({ invocationMessage: invocationMessage(record.name, options.input) }),
    invoke: async (options) => result(await runner.run(record.name, options.input, budget(options, settings))),
  };
}

/** A tool that writes files (`fd_to_file`): refused in Restricted Mode, confirmed with what it would write. */
function writeTool(
  record: ToolRecord,
  runner: LmToolRunner,
  settings: WatchedSettings<{ maxResultChars: number }>,
): vscode.LanguageModelTool<unknown> {
  return {
    prepareInvocation: async (options) => {
      // Refused in `invoke` as well as hidden by the manifest's `when`: a call may still arrive by name.
      if (!vscode.workspace.isTrusted)
        return { invocationMessage: `${record.name} will fail: ${escapeMarkdown(untrustedError(record).message)}` };
      let plan: WritePlan;
      try {
        plan = await runner.previewWrite(record, options.input);
      } catch (error) {
        // No confirmation for a write that cannot happen: the call runs and returns this same error to the model.
        const message = error instanceof ToolError ? error.message : String(error);
        return { invocationMessage: `${record.name} will fail: ${escapeMarkdown(message)}` };
      }
      return {
        invocationMessage: `Writing ${escapeMarkdown(plan.source)} to ${escapeMarkdown(shownPath(plan.target))}`,
        confirmationMessages: confirmation(plan),
      };
    },
    invoke: async (options) => {
      if (!vscode.workspace.isTrusted) return result(untrustedError(record).toXml());
      return result(await runner.run(record.name, options.input, budget(options, settings)));
    },
  };
}

/** The confirmation of a write: what is written where, how, how much, and whether a file is replaced. */
export function confirmation(plan: WritePlan): vscode.LanguageModelToolConfirmationMessages {
  const target = shownPath(plan.target);
  const how =
    plan.mode === 'write'
      ? plan.fileExists
        ? '**replaces an existing file**'
        : 'creates the file'
      : plan.mode === 'append'
        ? 'appends to the end of the file'
        : `inserts before line ${plan.line ?? 1}`;
  const from =
    plan.session === undefined
      ? ''
      : ` from session "${escapeMarkdown(plan.session.name)}" (${escapeMarkdown(plan.session.id)})`;
  const lines = [
    `Write ${escapeMarkdown(plan.source)}${from} to ${escapeMarkdown(target)}.`,
    '',
    `- Mode: ${plan.mode} (${how})`,
    `- Size: ${plan.chars.toLocaleString('en-US')} characters (${plan.bytes.toLocaleString('en-US')} bytes)`,
  ];
  if (plan.mode === 'write' && plan.fileExists) lines.push('', 'This replaces an existing file.');
  const message = new vscode.MarkdownString(lines.join('\n'));
  return {
    title: plan.mode === 'write' && plan.fileExists ? `Replace ${target}?` : `Write to ${target}?`,
    message,
  };
}
