import assert from 'node:assert/strict';
import { chatToMarkdown, fenced } from '../../../../src/core/chat/markdownExport';
import { toModelMessages } from '../../../../src/core/chat/modelMessages';
import { fromWebview, toWebview } from '../../../../src/core/chat/protocol';
import { chatRecordFromJSON, type ChatMessageRecord } from '../../../../src/core/session/transcript';
import { messageView, roundView } from '../../../../src/core/chat/views';
import { MAX_LINK_CHARS, MAX_SENT_TEXT_CHARS, USER_TEXT_VIEW_LIMIT } from '../../../../src/core/chat/protocolLimits';
import { validateChatSettings } from '../../../../src/core/settings/chatSettings';

const at = '2026-11-22T03:00:00.000Z';

describe('chat transcript', () => {
  describe('toModelMessages', () => {
    it('replays rounds as assistant messages followed by their tool results', () => {
      const messages: ChatMessageRecord[] = [
        { role: 'user', id: 'u1', text: 'hello', createdAt: at },
        {
          role: 'assistant',
          id: 'a1',
          createdAt: at,
          status: 'complete',
          rounds: [
            {
              text: 'Reading.',
              refVersions: [],
              toolCalls: [
                { callId: 'c1', name: 'read_fd', arguments: '{"fd":"fd:1"}', status: 'done', result: '<fd_content/>' },
              ],
            },
            { text: 'Done.', refVersions: [], toolCalls: [] },
          ],
        },
      ];
      assert.deepEqual(toModelMessages(messages), [
        { role: 'user', text: 'hello' },
        { role: 'assistant', text: 'Reading.', toolCalls: [{ id: 'c1', name: 'read_fd', arguments: '{"fd":"fd:1"}' }] },
        { role: 'tool', results: [{ callId: 'c1', name: 'read_fd', content: '<fd_content/>', isError: false }] },
        { role: 'assistant', text: 'Done.', toolCalls: [] },
      ]);
    });

    it('sends the paged form of a long message, joins consecutive user messages and skips empty rounds', () => {
      const messages: ChatMessageRecord[] = [
        { role: 'user', id: 'u1', text: 'x'.repeat(50), modelText: '<fd_user_input fd="fd:1"/>', createdAt: at },
        {
          role: 'assistant',
          id: 'a1',
          createdAt: at,
          status: 'error',
          rounds: [{ text: '', refVersions: [], toolCalls: [] }],
        },
        { role: 'user', id: 'u2', text: 'again', createdAt: at },
      ];
      assert.deepEqual(toModelMessages(messages), [{ role: 'user', text: '<fd_user_input fd="fd:1"/>\n\nagain' }]);
    });

    it('gives a stopped tool call an error result so the replay stays valid', () => {
      const messages: ChatMessageRecord[] = [
        { role: 'user', id: 'u1', text: 'go', createdAt: at },
        {
          role: 'assistant',
          id: 'a1',
          createdAt: at,
          status: 'stopped',
          rounds: [
            {
              text: '',
              refVersions: [],
              toolCalls: [{ callId: 'c1', name: 'list_refs', arguments: '{}', status: 'running' }],
            },
          ],
        },
      ];
      const replay = toModelMessages(messages);
      const tool = replay[2];
      assert.equal(tool?.role, 'tool');
      assert.ok(tool?.role === 'tool' && tool.results[0]?.isError && /did not run/.test(tool.results[0].content));
    });
  });

  describe('views', () => {
    it("finds a round's refs with the versions they got and marks nested ones", () => {
      const text = 'a <ref id="outer">x <ref id="inner">y</ref> z</ref> b <ref id="again">q</ref>';
      const view = roundView({ text, refVersions: [1, 3, 2], toolCalls: [] });
      assert.deepEqual(
        view.refs.map((r) => [r.id, r.version, r.nested, text.slice(r.start, r.end).startsWith('<ref')]),
        [
          ['outer', 1, false, true],
          ['inner', 3, true, true],
          ['again', 2, false, true],
        ],
      );
      assert.deepEqual(view.diagnostics, []);
    });

    it('reports diagnostics of a round (invalid id, unclosed tag)', () => {
      const view = roundView({ text: '<ref id="bad id">x</ref> <ref id="open">y', refVersions: [], toolCalls: [] });
      assert.equal(view.diagnostics.length, 2);
    });

    it('cuts long user text in the view and keeps the descriptor chip', () => {
      const view = messageView({
        role: 'user',
        id: 'u',
        text: 'y'.repeat(USER_TEXT_VIEW_LIMIT + 10),
        createdAt: at,
        descriptor: { id: 'fd:1', chars: USER_TEXT_VIEW_LIMIT + 10, lines: 1 },
      });
      assert.ok(view.role === 'user' && view.text.length === USER_TEXT_VIEW_LIMIT && view.descriptor?.id === 'fd:1');
    });
  });

  describe('chatRecordFromJSON', () => {
    it('marks an answer saved mid-stream as stopped and its unfinished tool calls as failed', () => {
      const record = chatRecordFromJSON({
        messages: [
          {
            role: 'assistant',
            id: 'a',
            createdAt: at,
            status: 'streaming',
            rounds: [
              {
                text: 'x',
                refVersions: [],
                toolCalls: [{ callId: 'c', name: 'fd_to_file', arguments: '{}', status: 'awaitingConfirmation' }],
              },
            ],
          },
        ],
      });
      const message = record.messages[0];
      assert.ok(message?.role === 'assistant');
      assert.equal(message.status, 'stopped');
      assert.equal(message.rounds[0]?.toolCalls[0]?.status, 'error');
    });

    it('restores a command or write left waiting for the user as not run, keeping what the card showed', () => {
      const command = { kind: 'command', command: 'make test', cwd: '/w', timeoutS: 120 };
      const write = {
        source: 'fd:1',
        path: 'a.txt',
        mode: 'write',
        chars: 1,
        bytes: 1,
        replacesFile: false,
        fileExists: false,
      };
      const record = chatRecordFromJSON({
        messages: [
          {
            role: 'assistant',
            id: 'a',
            createdAt: at,
            status: 'streaming',
            rounds: [
              {
                text: 'x',
                refVersions: [],
                toolCalls: [
                  {
                    callId: 'c1',
                    name: 'run_command',
                    arguments: '{}',
                    status: 'awaitingConfirmation',
                    confirmation: command,
                  },
                  {
                    callId: 'c2',
                    name: 'fd_to_file',
                    arguments: '{}',
                    status: 'awaitingConfirmation',
                    confirmation: write,
                  },
                  { callId: 'c3', name: 'run_command', arguments: '{}', status: 'running', confirmation: command },
                ],
              },
            ],
          },
        ],
      });
      const message = record.messages[0];
      assert.ok(message?.role === 'assistant');
      const [c1, c2, c3] = message.rounds[0]?.toolCalls ?? [];
      assert.deepEqual(c1?.confirmation, command);
      assert.deepEqual(c2?.confirmation, write);
      assert.deepEqual(
        [c1, c2, c3].map((c) => [c?.status, c?.unanswered === true]),
        [
          ['error', true],
          ['error', true],
          ['error', false],
        ],
      );
      assert.match(c1?.result ?? '', /closed before the user answered, so this call did not run/);
      assert.match(c3?.result ?? '', /closed before this tool finished/);
      assert.equal(roundView(message.rounds[0]!).toolCalls[0]?.unanswered, true);
    });

    it('rejects malformed data naming the field', () => {
      assert.throws(() => chatRecordFromJSON({ messages: [{ role: 'user', id: 1 }] }), /Invalid chat: messages\.0\.id/);
    });
  });

  describe('protocol', () => {
    it('accepts the messages the webview sends and rejects malformed ones', () => {
      assert.ok(fromWebview.safeParse({ type: 'send', text: 'hi' }).success);
      assert.ok(fromWebview.safeParse({ type: 'refAction', action: 'export', ref: 'ref:a.b-c@2' }).success);
      assert.ok(!fromWebview.safeParse({ type: 'send', text: '' }).success);
      assert.ok(!fromWebview.safeParse({ type: 'refAction', action: 'delete', ref: 'ref:a' }).success);
      assert.ok(!fromWebview.safeParse({ type: 'refAction', action: 'open', ref: '../../etc/passwd' }).success);
      assert.ok(!fromWebview.safeParse({ type: 'command', command: 'workbench.action.terminal.new' }).success);
      assert.ok(!fromWebview.safeParse({ type: 'entityHover', requestId: 1, id: '2-1 ' }).success);
      assert.ok(!fromWebview.safeParse('ready').success);
    });

    it('has one way to ask for an answer again', () => {
      assert.ok(fromWebview.safeParse({ type: 'retry' }).success);
      assert.ok(!fromWebview.safeParse({ type: 'command', command: 'retry' }).success);
    });

    it('takes text and links up to the shared limits and no longer', () => {
      const longest = 'x'.repeat(MAX_SENT_TEXT_CHARS);
      for (const message of [{ type: 'send' }, { type: 'editResend', messageId: 'u1' }, { type: 'copyText' }]) {
        assert.ok(fromWebview.safeParse({ ...message, text: longest }).success, message.type);
        assert.ok(!fromWebview.safeParse({ ...message, text: `${longest}x` }).success, message.type);
      }
      assert.ok(fromWebview.safeParse({ type: 'openLink', href: 'h'.repeat(MAX_LINK_CHARS) }).success);
      assert.ok(!fromWebview.safeParse({ type: 'openLink', href: 'h'.repeat(MAX_LINK_CHARS + 1) }).success);
    });

    it('describes every message the extension sends', () => {
      assert.ok(toWebview.safeParse({ type: 'textDelta', messageId: 'm-1', round: 0, text: 'a' }).success);
      assert.ok(!toWebview.safeParse({ type: 'textDelta', messageId: 'm-1', round: -1, text: 'a' }).success);
    });
  });

  describe('chatToMarkdown', () => {
    it('writes messages, tool calls and results in fences that their content cannot close', () => {
      const markdown = chatToMarkdown('My chat', [
        { role: 'user', id: 'u', text: 'Show me', createdAt: at },
        {
          role: 'assistant',
          id: 'a',
          createdAt: at,
          model: 'demo (Demo)',
          status: 'complete',
          rounds: [
            {
              text: 'Here ```',
              refVersions: [],
              toolCalls: [
                { callId: 'c', name: 'get_ref', arguments: '{"id":"x"}', status: 'done', result: 'has ```` four' },
              ],
            },
          ],
        },
      ]);
      assert.match(markdown, /^# My chat\n/);
      assert.match(markdown, /## demo \(Demo\)/);
      assert.match(markdown, /`````xml\nhas ```` four\n`````/);
      assert.match(markdown, /"id": "x"/);
    });

    it('fences are at least three backticks', () => {
      assert.equal(fenced('plain', 'txt'), '```txt\nplain\n```');
    });
  });

  describe('validateChatSettings', () => {
    it("reads the chat tool lists: names once each, never one of fdref's own, anything else said", () => {
      const { settings, problems } = validateChatSettings({
        tools: ['mcp_github_search', ' copilot_readFile ', 'mcp_github_search', 'read_fd', 'run_command', 3, ''],
        autoApproveTools: 'mcp_github_search',
        autoApproveCommands: 'yes',
      });
      assert.deepEqual(settings.tools, ['mcp_github_search', 'copilot_readFile']);
      assert.deepEqual(settings.autoApproveTools, []);
      assert.equal(settings.autoApproveCommands, false);
      assert.deepEqual(problems, [
        'fdref.chat.autoApproveCommands must be true or false (got "yes"); using false',
        'fdref.chat.tools[3]: "read_fd" is the name of one of FD Refs\' own chat tools; it is ignored',
        'fdref.chat.tools[4]: "run_command" is the name of one of FD Refs\' own chat tools; it is ignored',
        'fdref.chat.tools[5] must be a tool name (got 3); it is ignored',
        'fdref.chat.tools[6] must be a tool name (got ""); it is ignored',
        'fdref.chat.autoApproveTools must be a list of tool names (got "mcp_github_search"); no tool is used',
      ]);
      assert.deepEqual(validateChatSettings({}).settings.tools, []);
    });

    it('keeps valid endpoints with defaults and reports bad ones', () => {
      const { settings, problems } = validateChatSettings({
        endpoints: [
          { name: 'Claude', protocol: 'anthropic', model: 'claude-sonnet-4-5' },
          {
            name: 'Local',
            protocol: 'openai',
            baseUrl: 'http://127.0.0.1:11434/v1/',
            model: 'llama3.1',
            models: ['qwen3'],
          },
          { name: 'Bad', protocol: 'openai', baseUrl: 'ftp://x', model: 'm' },
          { name: 'Claude', protocol: 'anthropic', model: 'other' },
        ],
        maxTokens: 0,
      });
      assert.deepEqual(
        settings.endpoints.map((e) => [e.name, e.baseUrl, e.models]),
        [
          ['Claude', 'https://api.anthropic.com', ['claude-sonnet-4-5']],
          ['Local', 'http://127.0.0.1:11434/v1', ['llama3.1', 'qwen3']],
        ],
      );
      assert.equal(settings.maxTokens, 8192);
      assert.equal(problems.length, 3);
      assert.match(problems[0] as string, /endpoints\[2\]\.baseUrl must be an http/);
      assert.match(problems[1] as string, /"Claude" is used twice/);
      assert.match(problems[2] as string, /maxTokens must be a whole number/);
    });
  });
});
