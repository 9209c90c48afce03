import { UserError } from '../common/errors';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import { formatDescriptorId, parseDescriptorId } from '../core/ids';
import { descriptorUri } from '../files/fdrefUri';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { refFromArgumentOrPick } from './pickers';
import { diffBesideChat } from '../common/showBesideChat';
import type { UserMessages } from '../common/userMessages';

/** Shows a ref's version beside the one before it (`ref:x@n-1` against `ref:x`). */
export class CompareRefWithPreviousCommand implements Command {
  readonly id = REF_COMMAND_IDS.compare;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Compare Ref with Previous Version', this.messages);
    if (!found) return undefined;
    const { session, reader, descriptor } = found;
    const parts = parseDescriptorId(descriptor.id);
    if (parts?.kind !== 'ref') throw new UserError(`${descriptor.id} is not a ref, so it has no versions.`);
    const { refId } = parts;
    const latestId = formatDescriptorId({ kind: 'ref', refId });
    const version = parts.version ?? reader.refs().find((r) => r.descriptor.id === latestId)?.versions ?? 1;
    const previous = reader.lookup(formatDescriptorId({ kind: 'ref', refId, version: version - 1 }));
    if (version < 2 || !previous) throw new UserError(`${descriptor.id} has no earlier version to compare with.`);
    const title = `${latestId}: v${version - 1} ↔ v${version}`;
    await diffBesideChat(descriptorUri(session, previous), descriptorUri(session, descriptor), title);
    return title;
  }
}
