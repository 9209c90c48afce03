import { Content } from '../descriptors/content';
import { refDescriptorId } from '../ids';
import type { DescriptorDetails, DescriptorSource, DescriptorTable } from '../descriptors/descriptorTable';
import type { ToolDescriptor, ToolRef, ToolSession } from './toolContext';

/** The tools' view of an in-memory `DescriptorTable` (the chat's `Session`): every answer is immediate. */
export function tableToolSession(table: DescriptorTable): ToolSession {
  return {
    lookup: (id) => table.lookup(id),
    knownIds: () => table.knownIds(),
    fds: () => table.fdDescriptors().map((descriptor) => ({ descriptor })),
    refs: (): ToolRef[] =>
      table.refEntries().map(([id, versions]) => ({
        descriptor: table.lookup(refDescriptorId(id)) as ToolDescriptor,
        versions: versions.length,
      })),
    createFd: (source: DescriptorSource, text: string, details?: DescriptorDetails) =>
      Promise.resolve(table.createFd(source, new Content(text), details)),
  };
}
