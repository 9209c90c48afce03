import * as vscode from 'vscode';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { RefHoverProvider } from './refHoverProvider';

/** Hovers for ids written in files and untitled documents of any language. */
export function registerHover(context: vscode.ExtensionContext, registry: SessionRegistry): void {
  context.subscriptions.push(
    vscode.languages.registerHoverProvider([{ scheme: 'file', language: '*' }, { scheme: 'untitled', language: '*' }], new RefHoverProvider(registry)),
  );
}
