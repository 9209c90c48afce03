import type { AssistantMessageView, ToolCallView, ToWebview } from '../../src/core/chat/protocol';

/** What posts to a chat webview: a `ChatPanel` (its `onDidPost` event). */
export interface PostSource {
  onDidPost(listener: (message: ToWebview) => unknown): { dispose(): void };
}

/**
 * Everything a chat posted to its webview, in order: from a panel's `onDidPost`, or from `post`, which a
 * `ConversationListener` can be given directly.
 */
export class Recorder {
  readonly messages: ToWebview[] = [];
  private readonly subscription: { dispose(): void } | undefined;
  constructor(source?: PostSource) {
    this.subscription = source?.onDidPost((m) => this.messages.push(m));
  }
  readonly post = (message: ToWebview): void => {
    this.messages.push(message);
  };
  of<T extends ToWebview['type']>(type: T): Extract<ToWebview, { type: T }>[] {
    return this.messages.filter((m): m is Extract<ToWebview, { type: T }> => m.type === type);
  }
  /** The last state of the last assistant message. */
  lastAnswer(): AssistantMessageView {
    const updates = this.messages
      .flatMap((m) => (m.type === 'messageAdded' || m.type === 'messageUpdated' ? [m.message] : []))
      .filter((m) => m.role === 'assistant');
    const last = updates[updates.length - 1];
    if (!last || last.role !== 'assistant') throw new Error('no answer yet');
    return last;
  }
  toolCalls(): ToolCallView[] {
    return this.of('toolCall').map((m) => m.call);
  }
  dispose(): void {
    this.subscription?.dispose();
  }
}
