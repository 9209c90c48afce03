import type { Session } from '../core';
import type { ChatRecord } from '../core/session/transcript';
import type { SessionMetadata } from '../core/session/sessionRecord';

/** A core session with what the extension knows about it. Replaced, not mutated, when renamed. */
export interface SessionEntry {
  readonly metadata: SessionMetadata;
  readonly session: Session;
  /** A chat session's messages (changed in place while the chat runs; saved with the session). */
  readonly chat?: ChatRecord;
}

/** What changed in the registry; the tree, the file system and the hovers listen for these. */
export type SessionChange =
  | { readonly kind: 'added'; readonly sessionId: string }
  | { readonly kind: 'removed'; readonly sessionId: string; readonly name: string }
  | { readonly kind: 'renamed'; readonly sessionId: string; readonly previousName: string }
  | { readonly kind: 'refsChanged'; readonly sessionId: string; readonly refIds: readonly string[] }
  /** New `fd:` descriptors (a chat paged a message or stored a long tool output). */
  | { readonly kind: 'descriptorsChanged'; readonly sessionId: string }
  /** Everything may have changed (the registry was reloaded from disk). */
  | { readonly kind: 'reloaded' };
