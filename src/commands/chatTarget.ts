import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import type { ChatPanels } from '../chat/chatPanels';
import type { StoredSessionMeta } from '../core/store';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { sessionFromArgument } from './commandArguments';

/**
 * The chat a chat command acts on: the one the argument names (the tree's chat item), else the chat the user is
 * in, else one they pick (open chats first). Undefined when the pick is dismissed.
 */
export async function chatFromArgumentOrActive(
  registry: SessionRegistry,
  chats: ChatPanels,
  arg: unknown,
  title: string,
): Promise<StoredSessionMeta | undefined> {
  const given = await sessionFromArgument(registry, arg);
  const session = given ?? (await metaOf(registry, chats.active?.chatId)) ?? (await pickChat(registry, chats, title));
  if (session !== undefined && !session.chat) throw new UserError(`"${session.name}" holds captured refs, not a chat.`);
  return session;
}

/**
 * Runs `use` with the chat's session in memory, giving it up afterwards when it was not held before and no panel
 * shows it now (a chat only exported or forked from the tree is not kept in memory).
 */
export async function withChatEntry<T>(
  registry: SessionRegistry,
  chats: ChatPanels,
  session: StoredSessionMeta,
  use: (entry: SessionEntry) => Promise<T>,
): Promise<T> {
  const heldBefore = registry.holds(session.id);
  const entry = await registry.get(session.id);
  try {
    if (!entry) throw new UserError(`Chat "${session.name}" could not be read; see the FD Refs output.`);
    return await use(entry);
  } finally {
    if (!heldBefore && chats.get(session.id) === undefined) await registry.release(session.id);
  }
}

async function metaOf(registry: SessionRegistry, id: string | undefined): Promise<StoredSessionMeta | undefined> {
  return id === undefined ? undefined : registry.meta(id);
}

async function pickChat(
  registry: SessionRegistry,
  chats: ChatPanels,
  title: string,
): Promise<StoredSessionMeta | undefined> {
  const sessions = (await registry.list()).filter((session) => session.chat);
  if (sessions.length === 0) throw new UserError('There is no chat yet. Start one with "FD Refs: New Chat".');
  const open = (session: StoredSessionMeta) => chats.get(session.id) !== undefined;
  const items = [...sessions.filter(open), ...sessions.filter((s) => !open(s))].map((session) => ({
    label: session.name,
    description: `${open(session) ? 'open · ' : ''}created ${new Date(session.createdAt).toLocaleString()}`,
    session,
  }));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Pick a chat' }))?.session;
}
