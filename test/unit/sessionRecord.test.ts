import assert from 'node:assert/strict';
import { Session } from '../../src/core';
import { sessionRecordFromJSON, sessionRecordToJSON } from '../../src/core/session/sessionRecord';

describe('session records', () => {
  it('round-trips metadata and the session through JSON text', () => {
    const session = new Session();
    session.ingestAssistantMessage('<ref id="a">\n```ts\nconst a = 1;\n```\n</ref>');
    const metadata = { id: 'ab12cd34', name: 'Captured', createdAt: '2025-01-02T03:04:05.000Z', origin: { kind: 'capture', day: '2025-01-02' } } as const;
    const back = sessionRecordFromJSON(JSON.parse(JSON.stringify(sessionRecordToJSON(metadata, session))));
    assert.deepEqual(back.metadata, metadata);
    assert.equal(back.session.getDescriptor('ref:a')?.content.text, 'const a = 1;');
    assert.equal(back.session.getDescriptor('ref:a')?.language, 'ts');
  });

  it('keeps the fields of a chat origin', () => {
    const metadata = { id: 'c1', name: 'Chat', createdAt: '2025-01-02T03:04:05.000Z', origin: { kind: 'chat', model: 'm' } } as const;
    assert.deepEqual(sessionRecordFromJSON(sessionRecordToJSON(metadata, new Session())).metadata.origin, { kind: 'chat', model: 'm' });
  });

  it('rejects malformed records with a message saying what is wrong', () => {
    assert.throws(() => sessionRecordFromJSON({}), /Invalid session file: format/);
    const good = sessionRecordToJSON({ id: 'x1', name: 'n', createdAt: '2025-01-02T00:00:00Z', origin: { kind: 'capture' } }, new Session()) as Record<string, unknown>;
    assert.throws(() => sessionRecordFromJSON({ ...good, id: '../evil' }), /id: is not a valid session id/);
    assert.throws(() => sessionRecordFromJSON({ ...good, session: { format: 'nope' } }), /Invalid session data/);
  });
});
