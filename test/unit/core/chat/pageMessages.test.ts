import assert from 'node:assert/strict';
import { ChatDrafts } from '../../../../src/core/chat/chatDrafts';
import { fromWebview, takenFromPage, toWebview } from '../../../../src/core/chat/protocol';
import { MAX_DRAFT_CHARS } from '../../../../src/core/chat/protocolLimits';

describe("a chat takes from its host's page only what the page it loaded posted", () => {
  it('before the page says it is ready, only `ready` is taken (a send, stop or retry of the page shown before is not)', () => {
    for (const stale of [{ type: 'send', text: 'meant for the chat before' }, { type: 'stop' }, { type: 'retry' }])
      assert.equal(takenFromPage(false, stale), false, JSON.stringify(stale));
    assert.equal(takenFromPage(false, { type: 'ready' }), true);
    // A draft names its chat: the last one the page before posted is kept for its own chat.
    assert.equal(takenFromPage(false, { type: 'draft', chatId: 'a', text: 'half' }), true);
    for (const odd of [undefined, null, 'ready', 7, { kind: 'ready' }]) assert.equal(takenFromPage(false, odd), false);
  });

  it('once ready, everything goes on to be checked against the protocol', () => {
    assert.equal(takenFromPage(true, { type: 'send', text: 'hi' }), true);
    assert.equal(takenFromPage(true, { type: 'nonsense' }), true);
  });
});

describe('the drafts the extension keeps for chats', () => {
  it('keeps one per chat, forgets an empty one, and drops the least recently written beyond its bound', () => {
    const drafts = new ChatDrafts(3);
    drafts.set('a', 'one');
    drafts.set('b', 'two');
    drafts.set('c', 'three');
    drafts.set('a', 'one again');
    drafts.set('d', 'four');
    assert.equal(drafts.size, 3);
    assert.equal(drafts.get('b'), undefined, 'the least recently written went');
    assert.equal(drafts.get('a'), 'one again');
    drafts.set('a', '');
    assert.equal(drafts.get('a'), undefined);
    assert.equal(drafts.size, 2);
  });

  it('the protocol takes a draft up to its bound, for a named chat, and init carries one back', () => {
    assert.equal(
      fromWebview.safeParse({ type: 'draft', chatId: 'a', text: 'x'.repeat(MAX_DRAFT_CHARS) }).success,
      true,
    );
    assert.equal(
      fromWebview.safeParse({ type: 'draft', chatId: 'a', text: 'x'.repeat(MAX_DRAFT_CHARS + 1) }).success,
      false,
    );
    assert.equal(fromWebview.safeParse({ type: 'draft', text: 'x' }).success, false);
    const init = toWebview.parse({
      type: 'init',
      chatId: 'a',
      title: 'A',
      messages: [],
      models: [],
      busy: false,
      welcome: true,
      trusted: true,
      draft: 'half',
    });
    assert.equal(init.type === 'init' ? init.draft : undefined, 'half');
  });
});
