import { addReferences } from '../core';
import type { EntityService } from './entityService';

const encoder = new TextEncoder();

/** The JSON text of an entity document (a failed lookup is shown as such, not thrown). */
export async function entityDocument(entities: EntityService, id: string): Promise<Uint8Array> {
  const entity = await entities.resolver.resolve(id);
  const depth = entities.settings.referenceDepth;
  const withReferences =
    entity.reference_status === 'resolved' && depth > 0
      ? await addReferences(entity, entities.resolver, {
          include_references: true,
          reference_depth: depth,
          exclude_id: id,
        })
      : entity;
  return encoder.encode(`${JSON.stringify(withReferences, null, 2)}\n`);
}
