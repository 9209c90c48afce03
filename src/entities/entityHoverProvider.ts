import * as vscode from 'vscode';
import { entityTypeOfId, extractEntityIds, findEntityIdsInText } from '../core';
import { entityFailureMarkdown, entityHoverMarkdown, entityNotFoundMarkdown, type EntityHoverLinks } from '../core/presentation/entityHover';
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
    const text = await entityDetailsMarkdown(this.entities, found.id, signalOf(token));
    if (text === undefined || token.isCancellationRequested) return undefined;
    const markdown = new vscode.MarkdownString(text);
    markdown.isTrusted = { enabledCommands: ENTITY_HOVER_COMMANDS };
    return new vscode.Hover(markdown, new vscode.Range(position.line, found.start, position.line, found.end));
  }
}

/**
 * The hover's Markdown for an entity id (also shown in the chat): the entity, or why it could not be
 * loaded. Undefined when `signal` aborted first.
 */
export async function entityDetailsMarkdown(entities: EntityService, id: string, signal?: AbortSignal): Promise<string | undefined> {
  let entity;
  try {
    entity = await entities.resolver.resolve(id, signal ? { signal } : {});
  } catch (error) {
    // The resolver rejects only when its caller aborted.
    if (signal?.aborted) return undefined;
    throw error;
  }
  if (signal?.aborted) return undefined;
  const links = entityLinks(id);
  const type = entityTypeOfId(id) ?? 'entity';
  switch (entity.reference_status) {
    case 'resolved':
      return entityHoverMarkdown(entity, extractEntityIds(entity, { excludeId: id }), links);
    case 'not_found':
      return entityNotFoundMarkdown(type, id, entities.settings.apiBaseUrl, links);
    case 'failed':
      return entityFailureMarkdown(type, id, entity.error, entities.settings.apiBaseUrl, links);
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
