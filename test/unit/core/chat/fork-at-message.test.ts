import assert from 'node:assert/strict';
import { Session, nodeFileSystem } from '../../../../src/core';
import { Conversation } from '../../../../src/core/chat/conversation';
import type { ConversationHost } from '../../../../src/core/chat/conversationHost';
import { createAnthropicClient } from '../../../../src/core/chat/providers/anthropic';
import {
  chatRecordFromJSON,
  tableMarkAfter,
  type ChatMessageRecord,
  type ChatRecord,
} from '../../../../src/core/session/transcript';
import { sessionRecordFromJSON, sessionRecordToJSON } from '../../../../src/core/session/sessionRecord';
import { useModelEndpoint } from '../../../support/mochaHooks';
import { tempWorkspace } from '../../support/tempWorkspace';
import { memoryText } from '../../../support/descriptorText';

const refIds = (session: Session): string[] => session.refs().map((r) => `${r.descriptor.id}@${r.versions}`);
const fdIds = (session: Session): string[] => session.descriptors().map((d) => d.id);

describe('a fork at a message', () => {
  describe('Session.fork with a mark', () => {
    function history(): Session {
      const session = new Session({ maxDirectOutputChars: 1 });
      session.wrapToolOutput('shell', 'first output'); // fd:1
      session.ingestAssistantMessage('<ref id="a">a1</ref><ref id="b">b1</ref>');
      session.ingestAssistantMessage('<ref id="a">a2</ref>');
      session.wrapToolOutput('shell', 'later output'); // fd:2
      session.ingestAssistantMessage('<ref id="a">a3</ref><ref id="later">x</ref>');
      return session;
    }

    it('keeps only the fds below the mark and the first versions it names, and counts on from the mark', () => {
      const parent = history();
      const fork = parent.fork({
        nextFd: 2,
        refVersions: new Map([
          ['a', 2],
          ['b', 1],
        ]),
      });
      assert.deepEqual(fdIds(fork), ['fd:1']);
      assert.deepEqual(refIds(fork), ['ref:a@2', 'ref:b@1']);
      assert.equal(memoryText(fork.getDescriptor('ref:a')), 'a2');
      assert.equal(fork.getDescriptor('ref:a@3'), undefined);
      assert.equal(fork.getDescriptor('ref:later'), undefined);
      fork.wrapToolOutput('shell', 'fork output');
      fork.ingestAssistantMessage('<ref id="a">fork a3</ref>');
      assert.equal(memoryText(fork.getDescriptor('fd:2')), 'fork output');
      assert.equal(memoryText(fork.getDescriptor('ref:a')), 'fork a3');
      // The parent is untouched by the fork's additions.
      assert.equal(memoryText(parent.getDescriptor('fd:2')), 'later output');
      assert.equal(memoryText(parent.getDescriptor('ref:a')), 'a3');
      assert.deepEqual(refIds(parent), ['ref:a@3', 'ref:b@1', 'ref:later@1']);
    });

    it('keeps every fd when the mark does not know the counter (a chat saved before marks)', () => {
      const fork = history().fork({ nextFd: undefined, refVersions: new Map([['a', 1]]) });
      assert.deepEqual(fdIds(fork), ['fd:1', 'fd:2']);
      assert.deepEqual(refIds(fork), ['ref:a@1']);
      fork.wrapToolOutput('shell', 'fork output');
      assert.equal(memoryText(fork.getDescriptor('fd:3')), 'fork output');
    });
  });

  describe('tableMarkAfter', () => {
    const user = (id: string, nextFd?: number): ChatMessageRecord => ({
      role: 'user',
      id,
      text: 'q',
      createdAt: '2026-01-01T00:00:00Z',
      ...(nextFd === undefined ? {} : { nextFd }),
    });
    const answer = (id: string, rounds: [string, number[]][], nextFd?: number): ChatMessageRecord => ({
      role: 'assistant',
      id,
      createdAt: '2026-01-01T00:00:00Z',
      status: 'complete',
      rounds: rounds.map(([text, refVersions]) => ({ text, refVersions, toolCalls: [] })),
      ...(nextFd === undefined ? {} : { nextFd }),
    });

    it('takes each ref at the highest version the rounds got, and the counter of the last message', () => {
      const messages = [
        user('u1', 1),
        answer(
          'm1',
          [
            ['<ref id="a">1</ref> `<ref id="code">` <ref id="b">1</ref>', [1, 1]],
            ['<ref id="a">2</ref>', [2]],
          ],
          2,
        ),
        user('u2', 3),
        // An answer that repeated a ref unchanged got its latest version, not a new one.
        answer('m2', [['<ref id="a">1</ref><ref id="c">x</ref>', [1, 1]]], 3),
      ];
      const mark = tableMarkAfter(messages);
      assert.equal(mark.nextFd, 3);
      assert.deepEqual(
        [...mark.refVersions],
        [
          ['a', 2],
          ['b', 1],
          ['c', 1],
        ],
      );
      assert.equal(tableMarkAfter(messages.slice(0, 3)).nextFd, 3);
      assert.deepEqual([...tableMarkAfter(messages.slice(0, 1)).refVersions], []);
    });

    it('reads an old chat without counters: refs from the rounds, no counter', () => {
      const old = chatRecordFromJSON({ messages: [user('u1'), answer('m1', [['<ref id="a">1</ref>', [3]]])] });
      const mark = tableMarkAfter(old.messages);
      assert.equal(mark.nextFd, undefined);
      assert.deepEqual([...mark.refVersions], [['a', 3]]);
    });

    it('survives a session file: the counter of each message is saved and read back', () => {
      const chat: ChatRecord = { messages: [user('u1', 1), answer('m1', [['<ref id="a">1</ref>', [1]]], 4)] };
      const metadata = { id: 'f1', name: 'Chat', createdAt: '2026-01-01T00:00:00Z', origin: { kind: 'chat' } } as const;
      const back = sessionRecordFromJSON(
        JSON.parse(JSON.stringify(sessionRecordToJSON(metadata, new Session(), chat))),
      );
      assert.deepEqual(
        back.chat?.messages.map((m) => m.nextFd),
        [1, 4],
      );
    });
  });

  describe('of a conversation (real client, loopback endpoint)', function () {
    this.timeout(30_000);
    const endpoint = useModelEndpoint();

    it('carries the refs and fds as they were at the message, not those of later answers', async () => {
      const workspace = tempWorkspace();
      const client = createAnthropicClient({ label: 'Loopback', baseUrl: endpoint.anthropicBaseUrl, maxRetries: 0 });
      const host: ConversationHost = {
        chatName: () => 'Fork test',
        model: async () => ({ client, model: 'claude-loopback', label: 'loopback', maxTokens: 1000 }),
        workspace: () => ({ roots: [workspace.root], fileSystem: nodeFileSystem, trusted: true }),
        confirm: async () => true,
        autoApproveCommands: () => false,
        streamOutput: () => {
          throw new Error('This test runs no command.');
        },
        autoApproveWrites: () => false,
        limits: () => ({ maxToolOutputChars: 300, maxInputChars: 500 }),
        extraTools: () => [],
        systemPrompt: () => '',
        displayPath: (p) => p,
      };
      const record: ChatRecord = { messages: [] };
      const conversation = new Conversation(new Session(), record, host, {
        post: () => {},
        refsRegistered: () => {},
        descriptorsAdded: () => {},
        changed: () => {},
      });
      try {
        await conversation.send('Hello'); // ref:greet, ref:config
        const firstAnswer = record.messages[1]?.id as string;
        await conversation.send(`${'p'.repeat(2000)}\n\nHello`); // paged into fd:1; the same refs again
        const secondAnswer = record.messages[3]?.id as string;
        await conversation.send('big'); // ref:part_1 .. ref:part_20
        assert.equal(conversation.session.refs().length, 22);

        // What ChatPanels.fork does with the messages up to the one forked at.
        const forkAt = (messageId: string): Session =>
          conversation.session.fork(tableMarkAfter(conversation.messagesUpTo(messageId)));
        const first = forkAt(firstAnswer);
        assert.deepEqual(refIds(first), ['ref:greet@1', 'ref:config@1']);
        assert.deepEqual(fdIds(first), []);
        const second = forkAt(secondAnswer);
        assert.deepEqual(refIds(second), ['ref:greet@1', 'ref:config@1']);
        assert.deepEqual(fdIds(second), ['fd:1']);
        const last = forkAt(record.messages.at(-1)?.id as string);
        assert.equal(last.refs().length, 22);
        // A new fd in the first fork is numbered after what it holds, and stays apart from the parent's.
        first.pageUserInputAsDescriptor('q'.repeat(5000), 500);
        assert.deepEqual(fdIds(first), ['fd:1']);
        assert.match(memoryText(first.getDescriptor('fd:1')) ?? '', /^q+$/);
        assert.match(memoryText(conversation.session.getDescriptor('fd:1')) ?? '', /^p+/);
      } finally {
        workspace.dispose();
      }
    });
  });
});
