/**
 * The unsent text of each chat, kept by the extension so that it survives the chat's page going away: Open Chat in
 * Editor moves a chat to a new page, and the side bar's one page shows the next chat put there. In memory, for the
 * window's lifetime; bounded in count (the least recently written goes first) and in size (`MAX_DRAFT_CHARS` each,
 * checked by the protocol).
 */
export class ChatDrafts {
  private readonly drafts = new Map<string, string>();

  constructor(private readonly maxChats = 100) {}

  /** The draft of `chatId`; an empty text forgets it. */
  set(chatId: string, text: string): void {
    this.drafts.delete(chatId);
    if (text === '') return;
    this.drafts.set(chatId, text);
    for (const oldest of this.drafts.keys()) {
      if (this.drafts.size <= this.maxChats) break;
      this.drafts.delete(oldest);
    }
  }

  get(chatId: string): string | undefined {
    return this.drafts.get(chatId);
  }

  get size(): number {
    return this.drafts.size;
  }
}
