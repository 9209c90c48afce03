import type { Descriptor, DescriptorTable } from '../descriptors/descriptorTable';
import type { FileSystemPort } from '../files/fileSystemPort';
import { descriptorKindOf } from '../ids';
import { quoteInput } from '../quoteInput';
import { ToolError } from '../toolError';

/** What a tool may use of its session. */
export interface ToolContext {
  readonly table: DescriptorTable;
  readonly pageSize: number;
  readonly workspaceRoots: readonly string[];
  readonly fileSystem: FileSystemPort;
}

const MAX_LISTED_IDS = 50;

/** The descriptor `id` names, or a `not_found` error listing the ids that exist. */
export function requireDescriptor(context: ToolContext, id: string): Descriptor {
  const found = context.table.lookup(id.trim());
  if (found) return found;
  const known = context.table.knownIds();
  const listed = known.slice(0, MAX_LISTED_IDS).join(', ');
  const more = known.length > MAX_LISTED_IDS ? ` and ${known.length - MAX_LISTED_IDS} more` : '';
  const hint = descriptorKindOf(id) !== undefined ? '' : ' Ids look like "fd:1" or "ref:name".';
  const available = known.length === 0 ? 'There are no descriptors or refs yet.' : `Available: ${listed}${more}.`;
  throw new ToolError('not_found', `${quoteInput(id)} does not exist.${hint} ${available}`, id);
}
