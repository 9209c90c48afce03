import * as vscode from 'vscode';
import { run } from '../commands/registerCommands';
import type { UserMessages } from '../common/userMessages';
import { WatchedSettings } from '../common/watchedSettings';
import { terminalSettings } from '../core/terminal/terminalSettings';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { KeepLastTerminalOutputCommand } from './keepLastTerminalOutput';
import { TerminalCapture } from './terminalCapture';

/**
 * Follows the terminals' commands (`fdref.terminal.*`) and registers Keep Last Terminal Output. Cheap at
 * activation: three event listeners; a command's output is read only once it starts.
 */
export function registerTerminal(
  context: vscode.ExtensionContext,
  registry: SessionRegistry,
  messages: UserMessages,
): TerminalCapture {
  const settings = new WatchedSettings(terminalSettings, messages);
  const capture = new TerminalCapture(registry, settings, messages);
  const command = new KeepLastTerminalOutputCommand(capture, messages);
  context.subscriptions.push(
    settings,
    capture,
    vscode.commands.registerCommand(command.id, (...args: unknown[]) => run(command, messages, args)),
  );
  return capture;
}
