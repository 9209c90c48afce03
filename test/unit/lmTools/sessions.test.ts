import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Content } from '../../../src/core/descriptors/content';
import { nodeFileSystem } from '../../../src/core/files/fileSystemPort';
import { Store, type StoredSessionMeta } from '../../../src/core/store';
import type { SessionOrigin } from '../../../src/core/session/sessionRecord';
import type { SessionChange } from '../../../src/sessions/sessionEntry';
import { ToolError } from '../../../src/core/toolError';
import { untrustedWriteError } from '../../../src/core/tools/fdToFile';
import { ambiguousIdError, resolveSessionArgument } from '../../../src/core/tools/sessionArgument';
import { CopilotSessions, type SessionSource } from '../../../src/lmTools/copilotSessions';
import { invocationMessage } from '../../../src/lmTools/invocationMessage';
import { LmToolRunner } from '../../../src/lmTools/lmToolRunner';

const HOW = 'list_sessions lists them.';

function toolError(run: () => unknown): ToolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  assert.fail('no ToolError');
}

describe('the session argument (one rule for the MCP server and the language model tools)', () => {
  const sessions = [
    { id: 'aaaa1111', name: 'Terminal 2026-11-24' },
    { id: 'bbbb2222', name: 'Build' },
    { id: 'cccc3333', name: 'build ' },
    { id: 'dddd4444', name: 'aaaa1111' },
  ];

  it('takes an exact id first, then an exact name, case-insensitive and trimmed', () => {
    assert.equal(resolveSessionArgument(' aaaa1111 ', sessions, HOW).id, 'aaaa1111', 'an id beats a name');
    assert.equal(resolveSessionArgument('terminal 2026-11-24', sessions, HOW).id, 'aaaa1111');
    assert.equal(resolveSessionArgument('TERMINAL 2026-11-24 ', sessions, HOW).id, 'aaaa1111');
  });

  it('refuses a name several sessions have, listing their ids', () => {
    const error = toolError(() => resolveSessionArgument('BUILD', sessions, HOW));
    assert.equal(error.type, 'invalid_argument');
    assert.match(error.message, /2 sessions are named "BUILD"; pass one's id instead: bbbb2222, cccc3333\./);
  });

  it('answers an unknown session with not_found, the most recent sessions and how to find the others', () => {
    const error = toolError(() => resolveSessionArgument('nope', sessions, HOW));
    assert.equal(error.type, 'not_found');
    assert.match(error.message, /^There is no session "nope" \(by id or by name\)\. The most recent: "Terminal/);
    assert.match(error.message, /list_sessions lists them\.$/);
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `id${i}`, name: `s${i}` }));
    assert.doesNotMatch(toolError(() => resolveSessionArgument('x', many, HOW)).message, /id10\b/, 'at most 10');
    assert.match(toolError(() => resolveSessionArgument('x', [], HOW)).message, /The store has no sessions yet/);
  });
});

describe('an id several recent sessions have, looked up without `session`', () => {
  let root: string;
  let store: Store;
  let clock = 0;
  const metas: StoredSessionMeta[] = [];
  let source: SessionSource;
  let listeners: ((change: SessionChange) => void)[];

  async function sessionWith(name: string, origin: SessionOrigin, fds: { text: string; command?: string }[]) {
    const writer = await store.create({
      name,
      origin,
      createdAt: new Date(Date.UTC(2026, 10, 24, 8, 0, clock++)).toISOString(),
    });
    for (const fd of fds) {
      const content = await writer.putContent(fd.text);
      const command =
        fd.command === undefined
          ? {}
          : {
              command: {
                commandLine: fd.command,
                exitCode: 0,
                startedAt: '2026-11-24T08:00:00.000Z',
                outputChars: fd.text.length,
                cut: false,
              },
            };
      await writer.addDescriptor(
        { source: 'tool_output', toolName: 'terminal', createdAt: '2026-11-24T08:00:00.000Z', ...command },
        content,
      );
    }
    await writer.close();
    metas.length = 0;
    metas.push(...(await store.list()).sessions);
    return writer.id;
  }

  beforeEach(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-lm-sessions-')));
    store = await Store.open(root);
    metas.length = 0;
    listeners = [];
    source = {
      list: async () => [...metas],
      reader: (id) => store.read(id),
      create: () => Promise.reject(new Error('not in this test')),
      changed: async () => undefined,
      holds: () => false,
      onDidChange: (listener) => {
        listeners.push(listener);
        return { dispose: () => (listeners = listeners.filter((l) => l !== listener)) };
      },
    };
  });
  afterEach(async () => {
    await store.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads the one session that has it, and names it', async () => {
    const terminal = await sessionWith('Terminal 2026-11-24', { kind: 'terminal', day: '2026-11-24' }, [
      { text: 'first\n', command: 'echo first' },
    ]);
    const call = new CopilotSessions(source).forCall();
    const found = await call.lookup('fd:1');
    assert.equal(await found?.content.slice(0, 100), 'first\n');
    assert.deepEqual(call.foundIn.get('fd:1'), { id: terminal, name: 'Terminal 2026-11-24' });
    assert.equal(await call.lookup('fd:2'), undefined);
  });

  it('refuses to choose between two sessions, naming both with the command line or the source and size', async () => {
    const terminal = await sessionWith('Terminal 2026-11-24', { kind: 'terminal', day: '2026-11-24' }, [
      { text: 'one\n', command: 'echo one' },
      { text: 'two\n', command: 'printf "two\\n" # `x`' },
    ]);
    const chat = await sessionWith('Later chat', { kind: 'chat' }, [{ text: 'x'.repeat(1234) }, { text: 'y' }]);
    const call = new CopilotSessions(source).forCall();
    const error = await call.lookup('fd:2').then(
      () => assert.fail('no error'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof ToolError);
    assert.equal(error.type, 'invalid_argument');
    assert.equal(error.fd, 'fd:2');
    assert.match(error.message, /^"fd:2" is in 2 of the recent sessions/);
    assert.ok(error.message.indexOf(chat) < error.message.indexOf(terminal), 'the most recent first');
    assert.match(
      error.message,
      new RegExp(`"Later chat" \\(session ${chat}\\): tool_output \\(terminal\\), 1 character;`),
    );
    assert.match(
      error.message,
      new RegExp(
        `"Terminal 2026-11-24" \\(session ${terminal}\\): kept terminal output of "printf \\\\"two\\\\\\\\n\\\\" # \`x\`" \\(exit 0, 4 characters\\)`,
      ),
    );
    assert.match(error.message, /Call again with session set to the id \(or name\) of the one to read\.$/);
    assert.match(error.toXml(), /^<fd_error type="invalid_argument" fd="fd:2">/);
    // fd:1 is in both too; fd:3 in neither.
    await assert.rejects(call.lookup('fd:1'), /is in 2 of the recent sessions/);
    assert.equal(await call.lookup('fd:3'), undefined);
  });

  it('answers read_fd with the ambiguity and reads with `session` by id or name', async () => {
    const terminal = await sessionWith('Terminal 2026-11-24', { kind: 'terminal', day: '2026-11-24' }, [
      { text: 'from the terminal\n', command: 'echo from the terminal' },
    ]);
    await sessionWith('Later chat', { kind: 'chat' }, [{ text: 'from the chat' }]);
    const sessions = new CopilotSessions(source);
    const runner = new LmToolRunner(
      sessions,
      { roots: () => [root], fileSystem: undefined as never, trusted: () => true },
      1000,
    );
    const budget = { maxChars: 8000 };
    const ambiguous = await runner.run('read_fd', { fd: 'fd:1' }, budget);
    assert.match(ambiguous, /^<fd_error type="invalid_argument" fd="fd:1">"fd:1" is in 2 of the recent sessions/);
    for (const session of [terminal, 'terminal 2026-11-24']) {
      const read = await runner.run('read_fd', { fd: 'fd:1', session }, budget);
      assert.match(read, /^<fd_content fd="fd:1"[^>]*>from the terminal\n<\/fd_content>$/, read);
    }
    const searched = await runner.run('search_fd', { fd: 'fd:1', pattern: 'terminal', session: terminal }, budget);
    assert.match(searched, /matches="1"/);
  });

  it('returns read_all of a 9,000-character descriptor whole within the budget, its first pages past it', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${String(i + 1).padStart(4, '0')} ${'x'.repeat(19)}`).join(
      '\n',
    );
    await sessionWith('Terminal 2026-11-24', { kind: 'terminal', day: '2026-11-24' }, [{ text, command: 'make' }]);
    const runner = new LmToolRunner(
      new CopilotSessions(source),
      { roots: () => [root], fileSystem: undefined as never, trusted: () => true },
      1000,
    );
    const whole = await runner.run('read_fd', { fd: 'fd:1', read_all: true }, { maxChars: 12_000 });
    assert.ok(whole.startsWith('<fd_content fd="fd:1" page="all"'), whole.slice(0, 200));
    assert.ok(whole.includes(text), 'the whole content');
    // Copilot's default budget (8,000 characters, under the 8,192 it spills to a file): the first pages, handle first.
    const part = await runner.run('read_fd', { fd: 'fd:1', read_all: true }, { maxChars: 8000 });
    assert.ok(part.length <= 8000, `${part.length} characters`);
    assert.match(part, /<message>fd:1 is 8999 characters \(300 lines\), longer than/);
  });

  it('searches the ten most recently active sessions: grown since the window opened first, then newest created', async () => {
    const old = await sessionWith('Old terminal', { kind: 'terminal', day: '2026-11-23' }, [
      { text: 'old\n', command: 'echo old' },
    ]);
    for (let i = 0; i < 10; i++) await sessionWith(`Newer ${i}`, { kind: 'chat' }, []);
    const sessions = new CopilotSessions(source);
    assert.equal(await sessions.forCall().lookup('fd:1'), undefined, 'eleventh by creation: not searched');
    for (const listener of listeners) listener({ kind: 'descriptorsChanged', sessionId: old });
    const call = sessions.forCall();
    assert.equal(await (await call.lookup('fd:1'))?.content.slice(0, 10), 'old\n');
    assert.equal(call.foundIn.get('fd:1')?.id, old);
    assert.deepEqual(
      (await sessions.recent(3)).map((m) => m.name),
      ['Old terminal', 'Newer 9', 'Newer 8'],
    );
    for (const listener of listeners) listener({ kind: 'removed', sessionId: old, name: 'Old terminal' });
    assert.deepEqual(
      (await sessions.recent(2)).map((m) => m.name),
      ['Newer 9', 'Newer 8'],
    );
    sessions.dispose();
    assert.equal(listeners.length, 0);
  });

  it('refuses diff_fd a workspace file in Restricted Mode and reads it in a trusted workspace', async () => {
    await sessionWith('Terminal 2026-11-24', { kind: 'terminal', day: '2026-11-24' }, [
      { text: 'one\ntwo\n', command: 'make' },
    ]);
    const folder = mkdtempSync(path.join(tmpdir(), 'fdref-lm-diff-'));
    try {
      writeFileSync(path.join(folder, 'out.txt'), 'one\nthree\n');
      const runnerWith = (trusted: boolean) =>
        new LmToolRunner(
          new CopilotSessions(source),
          { roots: () => [folder], fileSystem: nodeFileSystem, trusted: () => trusted },
          1000,
        );
      const args = { a: 'fd:1', b: 'out.txt' };
      const refused = await runnerWith(false).run('diff_fd', args, { maxChars: 8000 });
      assert.match(
        refused,
        /^<fd_error type="permission_denied"[^>]*>diff_fd cannot read the workspace file "out\.txt" in Restricted Mode/,
      );
      assert.doesNotMatch(refused, /three/);
      const compared = await runnerWith(true).run('diff_fd', args, { maxChars: 8000 });
      assert.match(compared, /\n-two\n\+three\n/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keeps the id in this window’s tools session without asking', async () => {
    await sessionWith('Other', { kind: 'chat' }, [{ text: 'other' }]);
    await sessionWith('Another', { kind: 'chat' }, [{ text: 'another' }]);
    // This window's tools session, held in memory.
    const own = {
      metadata: { id: 'own00000', name: 'Copilot 2026-11-24 08:00' },
      session: {
        getDescriptor: (id: string) =>
          id === 'fd:1' ? { id, source: 'extract', createdAt: '', content: new Content('own') } : undefined,
        descriptors: () => [],
        refs: () => [],
      },
    };
    const sessions = new CopilotSessions({
      ...source,
      create: async () => own as never,
      holds: (id) => id === 'own00000',
    });
    await sessions.ownSession();
    const call = sessions.forCall();
    assert.equal(await (await call.lookup('fd:1'))?.content.slice(0, 10), 'own');
    assert.equal(call.foundIn.get('fd:1')?.id, 'own00000');
  });
});

describe('what the language model tools show and say', () => {
  it('escapes the model’s values in the invocation messages', () => {
    const hostile = '[x](command:workbench.action.reloadWindow) `code` *b* <img src=x>';
    for (const [tool, input] of [
      ['read_fd', { fd: hostile, session: hostile }],
      ['search_fd', { fd: 'fd:1', pattern: hostile, session: hostile }],
      ['get_ref', { id: hostile }],
      ['list_refs', { session: hostile }],
    ] as const) {
      const message = invocationMessage(tool, input);
      assert.doesNotMatch(message, /(?<!\\)[[\]()`*<>]/, `${tool}: ${message}`);
      assert.match(message, /\\\[x\\\]\\\(command:workbench\\\.action/);
    }
    assert.equal(invocationMessage('read_fd', { fd: 'fd:3' }), 'Reading fd:3');
    assert.equal(invocationMessage('search_fd', { fd: 'fd:3', pattern: 'a.b' }), 'Searching fd:3 for "a\\.b"');
  });

  it('says why fd_to_file is refused in Restricted Mode in one wording', () => {
    const error = untrustedWriteError();
    assert.equal(error.type, 'permission_denied');
    assert.match(error.message, /^fd_to_file is not available in Restricted Mode/);
    assert.match(error.message, /Manage Workspace Trust/);
  });
});

describe('ambiguousIdError', () => {
  it('lists at most ten candidates and says how many more', () => {
    const candidates = Array.from({ length: 12 }, (_, i) => ({
      session: { id: `s${i}`, name: `Session ${i}` },
      descriptor: { id: 'fd:1', source: 'extract' as const, createdAt: '', content: new Content('abc') },
    }));
    const message = ambiguousIdError('fd:1', candidates).message;
    assert.match(message, /"Session 9" \(session s9\): extract, 3 characters; and 2 more\./);
    assert.doesNotMatch(message, /s10/);
  });
});
