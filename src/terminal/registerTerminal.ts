import type * as vscode from 'vscode';
import type { UserMessages } from '../common/userMessages';
import { WatchedSettings } from '../common/watchedSettings';
import { terminalSettings } from '../core/settings/terminalSettings';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { TerminalCapture, type TerminalEvents } from './terminalCapture';

/**
 * Follows the terminals' commands (`fdref.terminal.*`); Keep Last Terminal Output is registered with the other
 * commands. Built with the window's objects, which the first command started builds (see `lazyTerminalEvents`).
 */
export function registerTerminal(
  context: vscode.ExtensionContext,
  registry: SessionRegistry,
  messages: UserMessages,
  events: TerminalEvents,
): TerminalCapture {
  const settings = new WatchedSettings(terminalSettings, messages);
  const capture = new TerminalCapture(registry, settings, messages, events);
  context.subscriptions.push(settings, capture);
  return capture;
}
