import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { asDescriptorId } from '../core/ids';
import { descriptorAtUri } from '../files/fdrefLookup';
import { fromFdrefUri } from '../files/fdrefUri';
import type { StoredSessionMeta } from '../core/store';
import type { FoundDescriptor, SessionRegistry } from '../sessions/sessionRegistry';

/**
 * What commands accept instead of asking: a tree item, an `fdref:` URI (editor title menus), or an
 * object such as `{ sessionId, refId: 'parse_config', path: 'out.py', overwrite: true }`.
 */
export interface CommandArguments {
  readonly sessionId?: string;
  /** `x`, `ref:x` or `ref:x@2`. */
  readonly refId?: string;
  /** `fd:3`, `ref:x`, `ref:x@2` (the tree's items carry this). */
  readonly descriptorId?: string;
  readonly path?: string;
  readonly line?: number;
  readonly overwrite?: boolean;
  readonly name?: string;
  readonly confirmed?: boolean;
  /** The text a search starts with (Search Kept Output...). */
  readonly query?: string;
}

/** The argument as `CommandArguments`; a URI becomes its session and descriptor ids. */
export function commandArguments(arg: unknown): CommandArguments {
  if (arg instanceof vscode.Uri) {
    const location = fromFdrefUri(arg);
    return location && 'sessionId' in location ? { sessionId: location.sessionId } : {};
  }
  return typeof arg === 'object' && arg !== null ? arg : {};
}

/** The descriptor the argument names, undefined when it names none (then the command asks); throws for unknown ids. */
export async function descriptorFromArgument(
  registry: SessionRegistry,
  arg: unknown,
): Promise<FoundDescriptor | undefined> {
  if (arg instanceof vscode.Uri) {
    const found = await descriptorAtUri(registry, arg);
    if (!found) throw new UserError(`${arg.toString()} is not a stored ref or descriptor.`);
    return found;
  }
  const args = commandArguments(arg);
  const raw = args.descriptorId ?? args.refId;
  if (raw === undefined) return undefined;
  const id = asDescriptorId(raw);
  if (args.sessionId !== undefined) {
    const session = await sessionOrThrow(registry, args.sessionId);
    const reader = await registry.reader(session.id);
    if (!reader) throw new UserError(`Session "${session.name}" could not be read; see the FD Refs output.`);
    const descriptor = reader.lookup(id);
    if (!descriptor) throw new UserError(`${id} does not exist in session "${session.name}".`);
    return { session, reader, descriptor };
  }
  const found = await registry.findDescriptor(id);
  if (!found) throw new UserError(`${id} does not exist in any FD Refs session.`);
  return found;
}

/** The session the argument names (its metadata), undefined when it names none. */
export async function sessionFromArgument(
  registry: SessionRegistry,
  arg: unknown,
): Promise<StoredSessionMeta | undefined> {
  const { sessionId } = commandArguments(arg);
  return sessionId === undefined ? undefined : sessionOrThrow(registry, sessionId);
}

async function sessionOrThrow(registry: SessionRegistry, sessionId: string): Promise<StoredSessionMeta> {
  const session = await registry.meta(sessionId);
  if (!session) throw new UserError(`There is no FD Refs session with id ${sessionId}.`);
  return session;
}
