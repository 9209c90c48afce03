import type * as vscode from 'vscode';
import type { UserMessages } from '../common/userMessages';
import { WatchedSettings } from '../common/watchedSettings';
import { terminalSettings } from '../core/settings/terminalSettings';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { TerminalCapture } from './terminalCapture';

/**
 * Follows the terminals' commands (`fdref.terminal.*`); Keep Last Terminal Output is registered with the other
 * commands. Cheap at activation: three event listeners; a command's output is read only once it starts.
 */
export function registerTerminal(
  context: vscode.ExtensionContext,
  registry: SessionRegistry,
  messages: UserMessages,
): TerminalCapture {
  const settings = new WatchedSettings(terminalSettings, messages);
  const capture = new TerminalCapture(registry, settings, messages);
  context.subscriptions.push(settings, capture);
  return capture;
}
