import * as vscode from 'vscode';
import { EntityHoverProvider } from './entityHoverProvider';
import type { EntityService } from './entityService';

/** Entity hovers in files, untitled documents and `fdref:` documents of any language. */
export function registerEntityHover(context: vscode.ExtensionContext, entities: EntityService): void {
  const selector = ['file', 'untitled', 'fdref'].map((scheme) => ({ scheme, language: '*' }));
  context.subscriptions.push(vscode.languages.registerHoverProvider(selector, new EntityHoverProvider(entities)));
}
