import * as vscode from 'vscode';
import type { TerminalEvents } from '../terminal/terminalCapture';
import type { LazyWindow } from './lazyWindow';

/**
 * VS Code's terminal events, followed from activation: Keep Last Terminal Output (and, with
 * `fdref.terminal.keepOutput` on, every command's output) needs each command from its start. The first command
 * started builds the window's objects, whose `TerminalCapture` follows these events: each is repeated to it, that
 * first start included (building is synchronous, so no output is missed). A window whose terminals run no command
 * loads none of it.
 */
export function lazyTerminalEvents(context: vscode.ExtensionContext, window: LazyWindow): TerminalEvents {
  const started = new vscode.EventEmitter<vscode.TerminalShellExecutionStartEvent>();
  const ended = new vscode.EventEmitter<vscode.TerminalShellExecutionEndEvent>();
  const closed = new vscode.EventEmitter<vscode.Terminal>();
  context.subscriptions.push(
    started,
    ended,
    closed,
    vscode.window.onDidStartTerminalShellExecution((event) => {
      window.get();
      started.fire(event);
    }),
    vscode.window.onDidEndTerminalShellExecution((event) => ended.fire(event)),
    vscode.window.onDidCloseTerminal((terminal) => closed.fire(terminal)),
  );
  return {
    onDidStartTerminalShellExecution: started.event,
    onDidEndTerminalShellExecution: ended.event,
    onDidCloseTerminal: closed.event,
    since: new Date(),
  };
}
