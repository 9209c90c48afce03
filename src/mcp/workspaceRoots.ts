/**
 * Where this server may run commands and write files: the `--workspace` folders, and the client's MCP roots when
 * it has the roots capability (asked for at start and again on `notifications/roots/list_changed`).
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/server';
import { errorMessage } from '../core/errors';

export class WorkspaceRoots {
  private clientRoots: readonly string[] = [];
  private refreshing: Promise<void> = Promise.resolve();

  constructor(
    /** The `--workspace` folders: always allowed, the first is where relative paths start. */
    readonly folders: readonly string[],
    private readonly log: (message: string) => void,
  ) {}

  /** The folders, then the client's roots (each once). */
  async current(): Promise<string[]> {
    await this.refreshing;
    return [...new Set([...this.folders, ...this.clientRoots])];
  }

  /** Asks the client for its roots again (when it has the capability); failures keep the last list and are logged. */
  refresh(server: Server): void {
    if (server.getClientCapabilities()?.roots === undefined) return;
    this.refreshing = this.refreshing.then(async () => {
      try {
        const { roots } = await server.listRoots();
        this.clientRoots = roots.flatMap((root) => {
          if (!root.uri.startsWith('file://')) return [];
          try {
            return [fileURLToPath(root.uri)];
          } catch {
            return [];
          }
        });
      } catch (error) {
        this.log(`The client's roots could not be read: ${errorMessage(error)}`);
      }
    });
  }
}
