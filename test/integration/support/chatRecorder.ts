import type * as vscode from 'vscode';
import type { ChatPanel } from '../../../src/chat/chatPanel';
import type { AssistantMessageView, ToolCallView, ToWebview } from '../../../src/core/chat/protocol';

/** Everything a panel posted to its webview, in order. */
export class Recorder {
  readonly messages: ToWebview[] = [];
  private readonly subscription: vscode.Disposable;
  constructor(panel: ChatPanel) {
    this.subscription = panel.onDidPost((m) => this.messages.push(m));
  }
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
    this.subscription.dispose();
  }
}
