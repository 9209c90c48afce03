import type { RefAction } from '../core/chat/protocol';

/**
 * The ids of the commands that act on one ref, by the chat's ref button that runs each: the commands declare their
 * ids from here and the chat panel runs them from here (package.json contributes them).
 */
export const REF_COMMAND_IDS = {
  open: 'fdref.openRef',
  copy: 'fdref.copyRef',
  insertAtCursor: 'fdref.insertRefAtCursor',
  applyToSymbol: 'fdref.applyRefToSymbol',
  export: 'fdref.exportRef',
  append: 'fdref.appendRef',
  compare: 'fdref.compareRefWithPrevious',
} as const satisfies Record<RefAction, string>;
