import assert from 'node:assert/strict';
import { errorRecord } from '../../../../src/core/chat/errorRecord';
import { languageModelError } from '../../../../src/core/chat/languageModelErrors';
import { CONTEXT_TOO_LONG_MESSAGE, ModelError } from '../../../../src/core/chat/modelClient';

const MODEL = 'GPT-4o (copilot)';

describe('chat errors: how a failed answer is shown', () => {
  it('offers no API key when the user has not let FD Refs use a VS Code model, and says what helps', () => {
    const detail = "Language model 'copilot/gpt-4o' cannot be used by 'fdref.fdref'.";
    const record = errorRecord(languageModelError(MODEL, 'noPermissions', detail, undefined));
    assert.equal(record.action, 'retry');
    assert.match(record.message, /^FD Refs may not use GPT-4o \(copilot\)/);
    assert.match(record.message, /choose Allow when VS Code asks/);
    assert.match(record.message, /Manage Language Model Access/);
    assert.match(record.message, /pick another model/);
    assert.doesNotMatch(record.message, /key/i);
    assert.equal(record.detail, detail);
  });

  it('offers Set API Key when an endpoint refused the key or does not let it use the model', () => {
    for (const kind of ['auth', 'permission'] as const)
      assert.equal(errorRecord(new ModelError(kind, 'refused')).action, 'setApiKey', kind);
  });

  it('tells the other failures of VS Code models apart as before', () => {
    const notFound = languageModelError(MODEL, 'notFound', 'gone', undefined);
    assert.deepEqual(
      [notFound.kind, notFound.message],
      ['notFound', 'GPT-4o (copilot) is no longer available. Pick another model.'],
    );
    assert.equal(errorRecord(notFound).action, 'openSettings');
    const blocked = languageModelError(MODEL, 'blocked', 'quota', undefined);
    assert.equal(blocked.kind, 'rateLimit');
    assert.equal(errorRecord(blocked).action, 'retry');
    const tooLong = languageModelError(MODEL, undefined, 'Message exceeds token limit.', undefined);
    assert.deepEqual([tooLong.kind, tooLong.message], ['contextTooLong', CONTEXT_TOO_LONG_MESSAGE]);
    assert.equal(errorRecord(tooLong).action, undefined);
    const other = languageModelError(MODEL, undefined, 'socket hang up', undefined);
    assert.deepEqual(
      [other.kind, other.message, other.options.detail],
      ['server', 'GPT-4o (copilot) failed: socket hang up', 'socket hang up'],
    );
  });

  it('shows anything but a ModelError as unexpected, with Retry', () => {
    assert.deepEqual(errorRecord(new TypeError('x is undefined')), {
      message: 'Something went wrong while answering: x is undefined',
      action: 'retry',
    });
  });
});
