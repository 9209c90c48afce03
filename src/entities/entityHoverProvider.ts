import * as vscode from 'vscode';
import { extractEntityIds, findEntityIdsInText } from '../core';
import { entityFailureMarkdown, entityHoverMarkdown, type EntityHoverLinks } from '../core/presentation/entityHover';
import type { EntityService } from './entityService';
import { signalOf } from './entityService';

/** Commands a hover may run; nothing else in it is trusted. */
export const ENTITY_HOVER_COMMANDS = ['fdref.openEntity', 'fdref.refreshEntity', 'workbench.action.openSettings'];

/** Structs entity ids (`2-1`) in any text show the entity from the API: key fields, references, links. */
export class EntityHoverProvider implements vscode.HoverProvider {
  constructor(private readonly entities: EntityService) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
    if (!this.entities.settings.hoverEnabled) return undefined;
    const line = document.lineAt(position.line).text;
    const found = findEntityIdsInText(line).find((m) => m.start <= position.character && position.character <= m.end);
    if (!found) return undefined;
    let entity;
    try {
      entity = await this.entities.resolver.resolve(found.id, { signal: signalOf(token) });
    } catch (error) {
      // The resolver rejects only when its caller aborted: here, when the hover was cancelled.
      if (token.isCancellationRequested) return undefined;
      throw error;
    }
    if (token.isCancellationRequested) return undefined;
    const links = entityLinks(found.id);
    const markdown = new vscode.MarkdownString(
      entity.status === 'success'
        ? entityHoverMarkdown(entity, extractEntityIds(entity, { excludeId: found.id }), links)
        : entityFailureMarkdown(found.type, found.id, String(entity.error), this.entities.settings.apiBaseUrl, links),
    );
    markdown.isTrusted = { enabledCommands: ENTITY_HOVER_COMMANDS };
    return new vscode.Hover(markdown, new vscode.Range(position.line, found.start, position.line, found.end));
  }
}

function entityLinks(id: string): EntityHoverLinks {
  const args = (value: unknown) => encodeURIComponent(JSON.stringify(value));
  return {
    open: `command:fdref.openEntity?${args([id])}`,
    refresh: `command:fdref.refreshEntity?${args([id])}`,
    settings: `command:workbench.action.openSettings?${args(['fdref.entities.apiBaseUrl'])}`,
  };
}
