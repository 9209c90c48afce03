import * as vscode from 'vscode';
import { findEntityIdsInText } from '../core';
import { ENTITY_HOVER_COMMANDS, entityDetailsMarkdown } from '../entities/entityDetails';
import { type EntityService, signalOf } from '../entities/entityService';

/** Structs entity ids (`2-1`) in any text show the entity from the API: key fields, references, links. */
export class EntityHoverProvider implements vscode.HoverProvider {
  constructor(private readonly entities: EntityService) {}

  async provideHover(
    document: vscode.TextDocument,
    position: vscode.Position,
    token: vscode.CancellationToken,
  ): Promise<vscode.Hover | undefined> {
    if (!this.entities.settings.hoverEnabled) return undefined;
    const line = document.lineAt(position.line).text;
    const found = findEntityIdsInText(line).find((m) => m.start <= position.character && position.character <= m.end);
    if (!found) return undefined;
    const text = await entityDetailsMarkdown(this.entities, found.id, signalOf(token));
    if (text === undefined || token.isCancellationRequested) return undefined;
    const markdown = new vscode.MarkdownString(text);
    markdown.isTrusted = { enabledCommands: ENTITY_HOVER_COMMANDS };
    return new vscode.Hover(markdown, new vscode.Range(position.line, found.start, position.line, found.end));
  }
}
