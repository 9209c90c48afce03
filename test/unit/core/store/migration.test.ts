import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Session } from '../../../../src/core';
import type { ChatRecord } from '../../../../src/core/session/transcript';
import {
  sessionRecordFromJSON,
  sessionRecordToJSON,
  type SessionMetadata,
} from '../../../../src/core/session/sessionRecord';
import { migrateLegacySessions, sameSession } from '../../../../src/core/store';
import { tempStoreFolder } from '../../../support/store/tempStore';
import { descriptorText } from '../../../support/descriptorText';

const at = '2025-01-02T03:04:05.000Z';

/** A session with what today's files hold: descriptors (one long, one with a lone surrogate), ref versions, a fork's counter, a chat. */
function richSession(): { metadata: SessionMetadata; session: Session; chat: ChatRecord } {
  const base = new Session({ maxDirectOutputChars: 100, maxInputChars: 100, now: () => new Date(at) });
  base.wrapToolOutput('run', 'out\n'.repeat(10_000));
  base.wrapToolOutput('odd', `lone \ud800 surrogate ${'y'.repeat(200)}`);
  base.ingestAssistantMessage('<ref id="a">\n```ts\nconst a = 1;\n```\n</ref> <ref id="b">b</ref>');
  base.ingestAssistantMessage('<ref id="a">second</ref>');
  const paste = 'pasted '.repeat(100);
  const paged = base.pageUserInputAsDescriptor(paste);
  const session = base.fork({
    nextFd: base.nextFd + 3,
    refVersions: new Map([
      ['a', 2],
      ['b', 1],
    ]),
  });
  const chat: ChatRecord = {
    model: 'endpoint:model',
    messages: [
      {
        role: 'user',
        id: 'u1',
        text: paste,
        createdAt: at,
        nextFd: 3,
        modelText: paged.text,
        descriptor: { id: paged.descriptor?.id ?? '', chars: paste.length, lines: 1 },
      },
      {
        role: 'assistant',
        id: 'a1',
        createdAt: at,
        status: 'streaming',
        rounds: [{ text: '<ref id="a">second</ref>', refVersions: [2], toolCalls: [] }],
      },
    ],
  };
  return {
    metadata: { id: 'legacy1', name: 'Old chat', createdAt: at, origin: { kind: 'chat', forkedFrom: 'zz' } },
    session,
    chat,
  };
}

describe("store migration of today's session files", () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  let legacy: string;
  beforeEach(() => {
    folder = tempStoreFolder();
    legacy = path.join(folder.root, 'legacy');
    mkdirSync(legacy);
  });
  afterEach(() => folder.dispose());

  const writeLegacy = (metadata: SessionMetadata, session: Session, chat?: ChatRecord): unknown => {
    const json = sessionRecordToJSON(metadata, session, chat);
    writeFileSync(path.join(legacy, `${metadata.id}.json`), JSON.stringify(json));
    return json;
  };

  it('converts a session file losslessly and removes it only after the session reads back equal', async () => {
    const { metadata, session, chat } = richSession();
    const json = writeLegacy(metadata, session, chat);
    writeLegacy(
      { id: 'capture1', name: 'Captured', createdAt: at, origin: { kind: 'capture', day: '2025-01-02' } },
      new Session(),
    );
    const store = await folder.open();
    const result = await migrateLegacySessions(store, legacy);
    assert.deepEqual(result, { migrated: ['capture1', 'legacy1'], alreadyMigrated: [], failed: [] });
    assert.deepEqual(readdirSync(legacy), []);
    const back = await (await (await folder.open()).read('legacy1'))?.materialize();
    assert.ok(back);
    assert.ok(await sameSession(back, sessionRecordFromJSON(json)));
    assert.equal(await descriptorText(back.session.getDescriptor('fd:2')), `lone \ud800 surrogate ${'y'.repeat(200)}`);
    assert.equal(back.session.nextFd, session.nextFd);
    assert.equal(back.chat?.messages[1]?.role === 'assistant' && back.chat.messages[1].status, 'stopped');
    const reader = await store.read('legacy1');
    assert.equal(
      reader?.current.messages[0]?.kind === 'inline' && reader.current.messages[0].textFd,
      'fd:3',
      'the paste is kept once, in its descriptor',
    );
    assert.deepEqual(
      (await store.list()).sessions.map((s) => s.id),
      ['capture1', 'legacy1'],
    );
  });

  it('leaves a file it cannot read in place, saying why, and converts the others', async () => {
    writeFileSync(path.join(legacy, 'broken.json'), '{"format":');
    writeLegacy({ id: 'good', name: 'g', createdAt: at, origin: { kind: 'capture' } }, new Session());
    const result = await migrateLegacySessions(await folder.open(), legacy);
    assert.deepEqual(result.migrated, ['good']);
    assert.equal(result.failed.length, 1);
    assert.match(result.failed[0]?.reason ?? '', /JSON/);
    assert.deepEqual(readdirSync(legacy), ['broken.json']);
  });

  it('removes a file an earlier run converted but did not get to remove (it stopped in between)', async () => {
    const { metadata, session, chat } = richSession();
    writeLegacy(metadata, session, chat);
    const store = await folder.open();
    await migrateLegacySessions(store, legacy);
    writeLegacy(metadata, session, chat);
    assert.deepEqual(await migrateLegacySessions(store, legacy), {
      migrated: [],
      alreadyMigrated: ['legacy1'],
      failed: [],
    });
    assert.equal(existsSync(path.join(legacy, 'legacy1.json')), false);
  });

  it('publishes nothing when the conversion fails part way: no session, the old file kept', async () => {
    const { metadata, session, chat } = richSession();
    writeLegacy(metadata, session, chat);
    const store = await folder.open();
    // A session folder of that id appears meanwhile: the conversion cannot publish.
    const original = store.create.bind(store);
    store.create = async (input, fill) =>
      original(input, async (writer) => {
        await fill?.(writer);
        mkdirSync(path.join(store.sessionFolder(input.id as string), 'content'), { recursive: true });
      });
    const result = await migrateLegacySessions(store, legacy);
    assert.equal(result.failed.length, 1);
    assert.ok(existsSync(path.join(legacy, 'legacy1.json')));
    assert.deepEqual(readdirSync(store.sessionsFolder), ['legacy1']);
    assert.deepEqual(readdirSync(store.sessionFolder('legacy1')), ['content'], 'only the folder made by the test');
  });
});
