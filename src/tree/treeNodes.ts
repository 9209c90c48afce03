/** The sessions view's id (package.json `contributes.views`). */
export const SESSIONS_VIEW = 'fdref.sessions';

/** An element of the sessions view. Plain data, so commands run from a context menu receive ids they understand. */
export type TreeNode = SessionNode | DescriptorNode;

export interface SessionNode {
  readonly kind: 'session';
  readonly sessionId: string;
}

/** A ref (its latest version) or an `fd:` descriptor. */
export interface DescriptorNode {
  readonly kind: 'descriptor';
  readonly sessionId: string;
  readonly descriptorId: string;
}

/** `contextValue`s the menus in package.json match on. */
export const CONTEXT = {
  session: 'fdref.session',
  /** A chat session, which also opens as a chat. */
  chatSession: 'fdref.session.chat',
  ref: 'fdref.ref',
  /** A ref with earlier versions, so it can be compared with the previous one. */
  refWithVersions: 'fdref.ref.versioned',
  descriptor: 'fdref.descriptor',
  /** Added to a session's value when it is pinned (`fdref.session.pinned`, `fdref.session.chat.pinned`). */
  pinnedSuffix: '.pinned',
} as const;
