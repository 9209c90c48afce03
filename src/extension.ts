import type * as vscode from 'vscode';

/**
 * The extension's entry point. The core (`src/core/`) is complete on its own; the VS Code surfaces that
 * use it (the `fdref:` file system, the tree view, commands, the chat panel) register here as they land.
 */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
