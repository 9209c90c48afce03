import assert from 'node:assert/strict';
import { Content } from '../../../../src/core/descriptors/content';
import { Session } from '../../../../src/core/session/session';
import { headlineText, toolCallHeadline } from '../../../../src/core/chat/toolSummary';
import { parseXml } from '../../support/xml';

/** A session holding a tool's long output, a pasted text and a command's output, made in that order. */
function sessionWithThree(): Session {
  let tick = 0;
  const session = new Session({
    maxDirectOutputChars: 10,
    maxInputChars: 10,
    now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
  });
  session.wrapToolOutput('shell', 'x'.repeat(50));
  session.pageUserInput('pasted '.repeat(10));
  session.addDescriptor('tool_output', new Content('ok\n'.repeat(5)), {
    toolName: 'run_command',
    command: {
      commandLine: 'npm test',
      cwd: '/w',
      exitCode: 1,
      startedAt: '2026-01-01T00:01:00Z',
      endedAt: '2026-01-01T00:01:05Z',
      outputChars: 15,
      cut: false,
    },
  });
  return session;
}

/** The chat's line for a finished call of `name` that gave `result`. */
function toolHeadlineText(name: string, args: object, result: string): string {
  const parts = toolCallHeadline({ callId: 'c1', name, arguments: JSON.stringify(args), status: 'done', result });
  assert.ok(parts);
  return headlineText(parts);
}

describe('list_fds', () => {
  it('lists the descriptors newest first, with the command, tool and size of each', async () => {
    const root = parseXml(await sessionWithThree().callTool('list_fds', {}));
    assert.equal(root.name, 'fd_list');
    assert.deepEqual([root.attributes['count'], root.attributes['shown']], ['3', '3']);
    const items = root.children.map((c) => c.attributes);
    assert.deepEqual(
      items.map((a) => [a['id'], a['source'], a['tool'], a['command'], a['exit_code'], a['chars']]),
      [
        ['fd:3', 'tool_output', 'run_command', 'npm test', '1', '15'],
        ['fd:2', 'user_input', undefined, undefined, undefined, '70'],
        ['fd:1', 'tool_output', 'shell', undefined, undefined, '50'],
      ],
    );
  });

  it('shows the newest `limit` and counts them all; a limit out of range is refused, not clamped', async () => {
    const session = sessionWithThree();
    const two = parseXml(await session.callTool('list_fds', { limit: '2' }));
    assert.deepEqual([two.attributes['count'], two.attributes['shown']], ['3', '2']);
    assert.deepEqual(
      two.children.map((c) => c.attributes['id']),
      ['fd:3', 'fd:2'],
    );
    for (const limit of [0, 501, 'x']) {
      const error = parseXml(await session.callTool('list_fds', { limit }));
      assert.equal(error.attributes['type'], 'invalid_argument', String(limit));
      assert.match(error.text, /limit/);
    }
  });

  it('says so when there are none, and its call reads as one line in the chat', async () => {
    const empty = await new Session().callTool('list_fds', {});
    assert.equal(empty, '<fd_list count="0" shown="0"></fd_list>');
    assert.equal(toolHeadlineText('list_fds', {}, empty), 'No descriptors');
    const three = await sessionWithThree().callTool('list_fds', {});
    assert.equal(toolHeadlineText('list_fds', {}, three), 'Listed 3 descriptors');
  });
});
