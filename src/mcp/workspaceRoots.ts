/**
 * Where this server may run commands and write files: the `--workspace` folders, and the client's MCP roots when
 * it has the roots capability (asked for at start and again on `notifications/roots/list_changed`). Reading never
 * waits for the client's answer; a write waits for it at most `ROOTS_WAIT_MS` after the server asked.
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/server';
import { errorMessage } from '../core/errors';
import { ToolError } from '../core/toolError';

/** How long after asking for the client's roots a write waits for them before going on with the known folders. */
export const ROOTS_WAIT_MS = 5_000;

/** The folders a write may use, and, when the client's roots were asked for but not answered in time, why not. */
export interface WritableRoots {
  readonly folders: string[];
  /** A sentence for an `outside_workspace` error: the client's newest roots were not known. */
  readonly unanswered?: string;
}

export class WorkspaceRoots {
  private clientRoots: readonly string[] = [];
  private refreshing: Promise<void> = Promise.resolve();
  /** When the newest question for the roots was asked and has not been answered yet (ms since the epoch). */
  private askedAt: number | undefined;

  constructor(
    /** The `--workspace` folders: always allowed, the first is where relative paths start. */
    readonly folders: readonly string[],
    private readonly log: (message: string) => void,
    private readonly waitMs = ROOTS_WAIT_MS,
  ) {}

  /** The folders, then the client's roots as last answered (each once), without waiting. */
  known(): string[] {
    return [...new Set([...this.folders, ...this.clientRoots])];
  }

  /**
   * The folders for a write: the client's roots once it has answered, or, when it has not within `waitMs` of
   * being asked, the folders known so far and a sentence saying so.
   */
  async forWriting(): Promise<WritableRoots> {
    const askedAt = this.askedAt;
    if (askedAt !== undefined) {
      const left = askedAt + this.waitMs - Date.now();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, left))));
      const outcome = await Promise.race([this.refreshing, late]);
      clearTimeout(timer);
      if (outcome === 'late' && this.askedAt !== undefined) {
        return {
          folders: this.known(),
          unanswered:
            `The client has not answered the server's roots/list request (waited ${this.waitMs / 1000} s), so only ` +
            'the --workspace folders and the roots it gave before are allowed.',
        };
      }
    }
    return { folders: this.known() };
  }

  /** Asks the client for its roots again (when it has the capability); failures keep the last list and are logged. */
  refresh(server: Server): void {
    if (server.getClientCapabilities()?.roots === undefined) return;
    const asked = Date.now();
    this.askedAt = asked;
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
      } finally {
        // Answered (or failed): writes wait only while a newer question is open.
        if (this.askedAt === asked) this.askedAt = undefined;
      }
    });
  }
}

/**
 * Runs a write with the folders it may use; an `outside_workspace` refusal made while the client's roots were
 * unanswered says so.
 */
export async function withWritableRoots<T>(
  roots: WorkspaceRoots,
  write: (folders: readonly string[]) => Promise<T>,
): Promise<T> {
  const { folders, unanswered } = await roots.forWriting();
  try {
    return await write(folders);
  } catch (error) {
    if (unanswered !== undefined && error instanceof ToolError && error.type === 'outside_workspace')
      throw new ToolError(error.type, `${error.message} ${unanswered}`, error.fd);
    throw error;
  }
}
