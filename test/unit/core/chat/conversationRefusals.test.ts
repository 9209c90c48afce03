import assert from 'node:assert/strict';
import { Session, nodeFileSystem } from '../../../../src/core';
import { Conversation } from '../../../../src/core/chat/conversation';
import type { ChatModel, ConversationHost } from '../../../../src/core/chat/conversationHost';
import { UserError } from '../../../../src/core/errors';
import { ModelError } from '../../../../src/core/chat/modelClient';
import type { ChatRecord } from '../../../../src/core/session/transcript';

/**
 * A conversation whose model is given only when the test says so: until then an answer is under way, which is all
 * the refusals need (no endpoint, nothing streams).
 */
function setUp(record: ChatRecord = { messages: [] }) {
  let giveModel: ((error: Error) => void) | undefined;
  const host: ConversationHost = {
    chatName: () => 'Plans',
    model: () =>
      new Promise<ChatModel>((_resolve, reject) => {
        giveModel = reject;
      }),
    workspace: () => ({ roots: [], fileSystem: nodeFileSystem, trusted: false }),
    confirm: async () => false,
    autoApproveWrites: () => false,
    autoApproveCommands: () => false,
    streamOutput: () => {
      throw new Error('These tests run no command.');
    },
    limits: () => ({ maxToolOutputChars: 300, maxInputChars: 500 }),
    extraTools: () => [],
    systemPrompt: () => '',
    displayPath: (p) => p,
  };
  const conversation = new Conversation(new Session(), record, host, {
    post: () => {},
    refsRegistered: () => {},
    descriptorsAdded: () => {},
    changed: () => {},
  });
  /** Ends the answer under way (its model cannot be had), as a failed answer ends. */
  const endAnswer = () => giveModel?.(new ModelError('notFound', 'No model is available.'));
  return { conversation, record, endAnswer };
}

/** Asserts `action` rejects with a `UserError` whose whole message is `message`. */
async function refuses(action: Promise<unknown>, message: string): Promise<void> {
  await assert.rejects(action, (error: unknown) => {
    assert.ok(error instanceof UserError, `a UserError, not ${String(error)}`);
    assert.equal(error.message, message);
    return true;
  });
}

describe('Conversation: what it refuses, as messages for a person (UserError)', () => {
  it('refuses to send, retry or edit while it is answering, naming the chat and what to do', async () => {
    const t = setUp();
    const answering = t.conversation.send('Hello');
    assert.equal(t.conversation.busy, true);
    const id = t.record.messages[0]?.id ?? '';
    await refuses(t.conversation.send('Again'), '"Plans" is still answering: stop it first, then send your message.');
    await refuses(t.conversation.retry(), '"Plans" is still answering: stop it first, then retry.');
    await refuses(t.conversation.editAndResend(id, 'Hi'), '"Plans" is still answering: stop it first, then edit it.');
    assert.equal(t.record.messages.length, 2, 'nothing was added or removed');
    t.endAnswer();
    await answering;
    assert.equal(t.conversation.busy, false);
  });

  it('refuses to retry a chat with no message yet', async () => {
    const t = setUp();
    await refuses(t.conversation.retry(), '"Plans" has no answer to retry yet: send a message first.');
    assert.equal(t.conversation.busy, false, 'no answer was started');
  });

  it('refuses to edit or fork at a message the chat no longer has, or one that is not the user’s', async () => {
    const t = setUp();
    const answering = t.conversation.send('Hello');
    t.endAnswer();
    await answering;
    const answer = t.record.messages[1];
    assert.equal(answer?.role, 'assistant');
    for (const id of ['m-gone', answer?.id ?? ''])
      await refuses(
        t.conversation.editAndResend(id, 'Hi'),
        'That message is no longer in "Plans", so it cannot be edited.',
      );
    assert.throws(
      () => t.conversation.messagesUpTo('m-gone'),
      (error: unknown) => error instanceof UserError && error.message === 'That message is no longer in "Plans".',
    );
    assert.equal(t.record.messages.length, 2, 'the chat is as it was');
  });
});
