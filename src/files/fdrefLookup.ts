import type * as vscode from 'vscode';
import { descriptorFileName, descriptorIdOfFileName } from '../core/files/fdrefPaths';
import type { FoundDescriptor, SessionRegistry } from '../sessions/sessionRegistry';
import { fromFdrefUri } from './fdrefUri';

/** The descriptor an `fdref:` file URI stands for; undefined when it names no existing file. */
export async function descriptorAtUri(
  registry: SessionRegistry,
  uri: vscode.Uri,
): Promise<FoundDescriptor | undefined> {
  const location = fromFdrefUri(uri);
  if (location?.kind !== 'file') return undefined;
  const id = descriptorIdOfFileName(location.area, location.fileName);
  if (id === undefined) return undefined;
  const [session, reader] = await Promise.all([registry.meta(location.sessionId), registry.reader(location.sessionId)]);
  const descriptor = reader?.lookup(id);
  // The name must be exactly the one listed (extension included), so listing and reading agree.
  if (
    !session ||
    !reader ||
    !descriptor ||
    descriptorFileName(descriptor.id, descriptor.language) !== location.fileName
  )
    return undefined;
  return { session, reader, descriptor };
}
