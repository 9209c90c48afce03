import * as z from 'zod';
import { addReferences, isEntityId } from '../../core';
import { quoteInput } from '../../core/quoteInput';
import type { ExtraTool } from '../../core/chat/conversationHost';
import { STRUCTS_ENTITY_TOOL } from '../../core/chat/toolNames';
import { toolInputJsonSchema } from '../../core/tools/schemas';
import type { EntityService } from '../../entities/entityService';

const input = z.strictObject({
  id: z.string().describe('A Structs entity id such as "1-11" (type code, a dash, an index).'),
  depth: z.coerce
    .number()
    .int()
    .min(0)
    .max(2)
    .optional()
    .describe('How deep referenced entities are included: 0 none, 1 (default) the ones it names, 2 also theirs.'),
});

/**
 * `structs_entity`: lets the model look up a Structs entity (with the entities it references) in the API
 * the extension is configured for. Long results become descriptors like any other tool output.
 */
export function structsEntityTool(entities: EntityService): ExtraTool {
  return {
    definition: {
      name: STRUCTS_ENTITY_TOOL,
      description:
        'Look up a Structs game entity by id (e.g. "2-1" planet, "1-11" player) in the Structs API and return it as JSON, ' +
        'with a "references" section listing the entities it points to.',
      inputSchema: toolInputJsonSchema(input),
    },
    async run(args, signal) {
      const parsed = input.safeParse(args);
      if (!parsed.success)
        throw new Error(parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; '));
      const { id, depth = 1 } = parsed.data;
      if (!isEntityId(id))
        throw new Error(
          `${quoteInput(id)} is not an entity id; ids look like "2-1" (type code 0-11, a dash, an index from 1).`,
        );
      const entity = await entities.resolver.resolve(id, { signal });
      if (entity.reference_status === 'not_found')
        throw new Error(
          `There is no ${entity.reference_type} ${id} on the Structs node at ${entities.settings.apiBaseUrl}.`,
        );
      if (entity.reference_status === 'failed')
        throw new Error(`${id} could not be loaded from ${entities.settings.apiBaseUrl}: ${entity.error}`);
      const result =
        depth > 0
          ? await addReferences(entity, entities.resolver, {
              include_references: true,
              reference_depth: depth,
              exclude_id: id,
            })
          : entity;
      return JSON.stringify(result, null, 2);
    },
  };
}
