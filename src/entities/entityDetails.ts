import { entityTypeOfId, extractEntityIds } from '../core';
import {
  entityFailureMarkdown,
  entityHoverMarkdown,
  entityNotFoundMarkdown,
  type EntityHoverLinks,
} from '../core/presentation/entityHover';
import type { EntityService } from './entityService';

/** Commands the entity details link to (in a hover and in the chat); nothing else in them is trusted. */
export const ENTITY_HOVER_COMMANDS = ['fdref.openEntity', 'fdref.refreshEntity', 'workbench.action.openSettings'];

/**
 * The hover's Markdown for an entity id (also shown in the chat): the entity, or why it could not be
 * loaded. Undefined when `signal` aborted first.
 */
export async function entityDetailsMarkdown(
  entities: EntityService,
  id: string,
  signal?: AbortSignal,
): Promise<string | undefined> {
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
