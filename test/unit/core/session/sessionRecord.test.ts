import assert from 'node:assert/strict';
import { Session } from '../../../../src/core';
import { sessionRecordFromJSON, sessionRecordToJSON } from '../../../../src/core/session/sessionRecord';
import { memoryText } from '../../../support/descriptorText';

describe('session records', () => {
  it('round-trips metadata and the session through JSON text', () => {
    const session = new Session();
    session.ingestAssistantMessage('<ref id="a">\n```ts\nconst a = 1;\n```\n</ref>');
    const metadata = {
      id: 'ab12cd34',
      name: 'Captured',
      createdAt: '2025-01-02T03:04:05.000Z',
      origin: { kind: 'capture', day: '2025-01-02' },
    } as const;
    const back = sessionRecordFromJSON(JSON.parse(JSON.stringify(sessionRecordToJSON(metadata, session))));
    assert.deepEqual(back.metadata, metadata);
    assert.equal(memoryText(back.session.getDescriptor('ref:a')), 'const a = 1;');
    assert.equal(back.session.getDescriptor('ref:a')?.language, 'ts');
  });

  it('keeps the fields of a chat origin', () => {
    const metadata = {
      id: 'c1',
      name: 'Chat',
      createdAt: '2025-01-02T03:04:05.000Z',
      origin: { kind: 'chat', model: 'm' },
    } as const;
    assert.deepEqual(sessionRecordFromJSON(sessionRecordToJSON(metadata, new Session())).metadata.origin, {
      kind: 'chat',
      model: 'm',
    });
  });

  it('keeps every other origin as it was, and drops an undefined day', () => {
    const origins = [
      { kind: 'capture' },
      { kind: 'terminal', day: '2026-11-24' },
      { kind: 'terminal' },
      { kind: 'mcp', client: 'Claude Code' },
      { kind: 'lmTools' },
      { kind: 'participant' },
    ] as const;
    for (const origin of origins) {
      const metadata = { id: 'o1', name: 'n', createdAt: '2025-01-02T00:00:00Z', origin };
      const json = JSON.parse(JSON.stringify(sessionRecordToJSON(metadata, new Session()))) as unknown;
      assert.deepEqual(sessionRecordFromJSON(json).metadata.origin, origin);
    }
    const bad = { id: 'o1', name: 'n', createdAt: '2025-01-02T00:00:00Z', origin: { kind: 'terminal', day: 'today' } };
    assert.throws(() => sessionRecordFromJSON(sessionRecordToJSON(bad as never, new Session())), /origin/);
  });

  it('rejects malformed records with a message saying what is wrong', () => {
    assert.throws(() => sessionRecordFromJSON({}), /Invalid session file: format/);
    const good = sessionRecordToJSON(
      { id: 'x1', name: 'n', createdAt: '2025-01-02T00:00:00Z', origin: { kind: 'capture' } },
      new Session(),
    ) as Record<string, unknown>;
    assert.throws(() => sessionRecordFromJSON({ ...good, id: '../evil' }), /id: is not a valid session id/);
    assert.throws(() => sessionRecordFromJSON({ ...good, session: { format: 'nope' } }), /Invalid session data/);
  });
});

describe('session records from hostile files', () => {
  const metadata = { id: 'h1', name: 'n', createdAt: '2025-01-02T00:00:00Z', origin: { kind: 'capture' } } as const;
  const withSession = (session: Record<string, unknown>): unknown => ({
    ...(sessionRecordToJSON(metadata, new Session()) as Record<string, unknown>),
    session,
  });
  const savedSession = (fields: Record<string, unknown>): Record<string, unknown> => ({
    ...(new Session().toJSON() as Record<string, unknown>),
    ...fields,
  });
  /** A saved session holding `fd:7` ("kept") whose counter is `nextFd`. */
  const savedWithFd7 = (nextFd: number): Record<string, unknown> =>
    savedSession({
      nextFd,
      contents: ['kept'],
      descriptors: [{ id: 'fd:7', source: 'tool_output', createdAt: '2025-01-02T00:00:00Z', content: 0 }],
    });

  it('rejects a descriptor counter too close to 2^53 to count on exactly, saying so', () => {
    for (const nextFd of [2 ** 53 - 2, Number.MAX_SAFE_INTEGER, 2 ** 32 + 1]) {
      assert.throws(
        () => sessionRecordFromJSON(withSession(savedSession({ nextFd }))),
        /Invalid session data: nextFd: must be at most 4294967296, so that new descriptors get ids of their own/,
        String(nextFd),
      );
    }
  });

  it('loads a session whose counter has room to grow, and it keeps every descriptor and loads again after a save', () => {
    const { session } = sessionRecordFromJSON(withSession(savedWithFd7(2 ** 32 - 5)));
    session.wrapToolOutput('shell', 'x'.repeat(10_000));
    assert.deepEqual(
      session.descriptors().map((d) => d.id),
      ['fd:7', `fd:${2 ** 32 - 5}`],
    );
    const again = sessionRecordFromJSON(JSON.parse(JSON.stringify(sessionRecordToJSON(metadata, session))));
    assert.equal(memoryText(again.session.getDescriptor('fd:7')), 'kept');
  });

  it('refuses a new descriptor at the highest counter, keeping every descriptor and a file that loads', () => {
    const { session } = sessionRecordFromJSON(withSession(savedWithFd7(2 ** 32 - 1)));
    session.wrapToolOutput('shell', 'x'.repeat(10_000)); // takes the last number, fd:4294967295
    assert.throws(
      () => session.wrapToolOutput('shell', 'y'.repeat(10_000)),
      /used all 4294967295 descriptor numbers; start a new session/,
    );
    const again = sessionRecordFromJSON(JSON.parse(JSON.stringify(sessionRecordToJSON(metadata, session))));
    assert.deepEqual(
      again.session.descriptors().map((d) => d.id),
      ['fd:7', `fd:${2 ** 32 - 1}`],
    );
  });

  it('says what is wrong with 100,000 bad descriptors in a few lines, not megabytes', () => {
    const descriptors = Array.from({ length: 100_000 }, (_, i) => ({
      id: `bad ${i}`,
      source: 'nowhere',
      createdAt: 'never',
      content: -1,
    }));
    assert.throws(
      () => sessionRecordFromJSON(withSession(savedSession({ descriptors }))),
      (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.ok(error.message.length < 1000, `${error.message.length} characters`);
        assert.match(
          error.message,
          /^Invalid session data: descriptors\.0\.id: must look like fd:N; .*; and \d+ more problems$/,
        );
        return true;
      },
    );
  });

  it('quotes only a prefix of a huge descriptor id', () => {
    const id = `fd:${'9'.repeat(1_000_000)}`;
    const saved = savedSession({
      nextFd: 5,
      contents: ['a'],
      descriptors: [{ id, source: 'extract', createdAt: '2025-01-02T00:00:00Z', content: 0 }],
    });
    assert.throws(
      () => sessionRecordFromJSON(withSession(saved)),
      (error: unknown) =>
        error instanceof Error && error.message.length < 300 && /is not below the counter fd:5/.test(error.message),
    );
  });
});
