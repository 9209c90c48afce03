import type { Session } from '../core';
import type { ChatRecord } from '../core/session/transcript';
import type { SessionMetadata } from '../core/session/sessionRecord';

/**
 * A session held in memory by this window (a chat panel shows it, or refs are captured into it), with what the
 * extension knows about it. Replaced, not mutated, when renamed.
 */
export interface SessionEntry {
  readonly metadata: SessionMetadata;
  readonly session: Session;
  /** A chat session's messages (changed in place while the chat runs; saved with the session). */
  readonly chat?: ChatRecord;
  /**
   * Why this window cannot change the session (another process writes it), when it cannot: it is shown as
   * it was read, and nothing done to it here is saved.
   */
  readonly readOnly?: string;
}

/** What changed in the registry; the tree, the file system and the hovers listen for these. */
export type SessionChange =
  | { readonly kind: 'added'; readonly sessionId: string }
  | { readonly kind: 'removed'; readonly sessionId: string; readonly name: string }
  | { readonly kind: 'renamed'; readonly sessionId: string; readonly previousName: string }
  | { readonly kind: 'pinned'; readonly sessionId: string; readonly pinned: boolean }
  | { readonly kind: 'refsChanged'; readonly sessionId: string; readonly refIds: readonly string[] }
  /** New `fd:` descriptors (a chat paged a message or stored a long tool output). */
  | { readonly kind: 'descriptorsChanged'; readonly sessionId: string }
  /** Everything may have changed (the registry was reloaded from disk). */
  | { readonly kind: 'reloaded' };
