import * as vscode from 'vscode';
import type { EntityService } from '../entities/entityService';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { FdrefFileSystem } from './fdrefFileSystem';
import { FDREF_SCHEME } from './fdrefUri';

/** Serves `fdref:` read-only; nothing is read until VS Code asks for a file. */
export function registerFileSystem(context: vscode.ExtensionContext, registry: SessionRegistry, entities: EntityService): FdrefFileSystem {
  const fileSystem = new FdrefFileSystem(registry, entities);
  context.subscriptions.push(
    fileSystem,
    vscode.workspace.registerFileSystemProvider(FDREF_SCHEME, fileSystem, { isReadonly: true, isCaseSensitive: true }),
  );
  return fileSystem;
}
