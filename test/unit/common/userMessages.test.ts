import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { UserError } from '../../../src/core/errors';
import { ToolError } from '../../../src/core/toolError';
import type * as UserMessagesModule from '../../../src/common/userMessages';

const root = path.resolve(path.resolve(__dirname, '..'), '../..');

/** What the fake `vscode` saw: the channels made, the lines logged at each level, the messages shown. */
interface Seen {
  channels: { name: string; options: unknown }[];
  lines: { level: string; text: string }[];
  shown: { kind: string; text: string; options: { modal?: boolean; detail?: string }; actions: string[] }[];
}

/**
 * `src/common/userMessages.ts` loaded over a fake `vscode` module (the unit tests run outside VS Code): just what
 * it uses, the output channel and the three `show*Message` calls, each recorded.
 */
function loadUserMessages(answer?: string): { module: typeof UserMessagesModule; seen: Seen } {
  const seen: Seen = { channels: [], lines: [], shown: [] };
  const logAt = (level: string) => (text: string) => seen.lines.push({ level, text });
  const show =
    (kind: string) =>
    (text: string, options: Seen['shown'][number]['options'], ...actions: string[]) => {
      seen.shown.push({ kind, text, options, actions });
      return Promise.resolve(answer);
    };
  const fake = {
    window: {
      createOutputChannel: (name: string, options: unknown) => {
        seen.channels.push({ name, options });
        const levels = ['trace', 'debug', 'info', 'warn', 'error'] as const;
        return { ...Object.fromEntries(levels.map((l) => [l, logAt(l)])), dispose: () => {} };
      },
      showInformationMessage: show('info'),
      showWarningMessage: show('warning'),
      showErrorMessage: show('error'),
    },
  };
  const id = require.resolve('../../../src/common/userMessages');
  const lifecycle = require.resolve('../../../src/common/lifecycle');
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const original = loader._load;
  loader._load = (request, ...rest) => (request === 'vscode' ? fake : original(request, ...rest));
  delete require.cache[id];
  delete require.cache[lifecycle];
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return { module: require(id) as typeof UserMessagesModule, seen };
  } finally {
    loader._load = original;
    delete require.cache[id];
    delete require.cache[lifecycle];
  }
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('UserMessages: every notification, one prefix rule, a log channel with levels', () => {
  it('is the only code that shows a notification or a modal message (nothing calls show*Message around it)', () => {
    const own = path.join(root, 'src/common/userMessages.ts');
    const bypasses = filesUnder(path.join(root, 'src'))
      .filter((file) => file !== own)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${path.relative(root, file)}:${i + 1}` }))
          .filter(({ line }) => /\bshow(?:Information|Warning|Error)Message\b|\bcreateOutputChannel\b/.test(line))
          .map(({ at }) => at),
      );
    assert.deepEqual(bypasses, [], 'call UserMessages (info, warn, error, failure, ask, log) instead');
  });

  it('starts every notification with "FD Refs", adding "FD Refs: " only when the sentence does not start so', async () => {
    const { module, seen } = loadUserMessages();
    const messages = new module.UserMessages();
    const mark = messages.mark;
    await messages.info('Captured 2 refs.');
    await messages.warn('FD Refs could not convert the session file x.');
    await messages.error('FD Refs: said once.');
    assert.deepEqual(
      seen.shown.map((s) => [s.kind, s.text]),
      [
        ['info', 'FD Refs: Captured 2 refs.'],
        ['warning', 'FD Refs could not convert the session file x.'],
        ['error', 'FD Refs: said once.'],
      ],
    );
    assert.deepEqual(
      messages.since(mark).map((m) => [m.level, m.text]),
      seen.shown.map((s) => [s.kind, s.text]),
      'the tests see what the user saw',
    );
    assert.ok(seen.shown.every((s) => s.options.modal !== true));
    assert.equal(module.notificationText('Done.'), 'FD Refs: Done.');
    messages.dispose();
  });

  it('asks a modal question in its own words, with its detail and answers, and gives the answer chosen', async () => {
    const { module, seen } = loadUserMessages('Delete');
    const messages = new module.UserMessages();
    const mark = messages.mark;
    assert.equal(await messages.ask('warning', 'Delete session "a"?', 'This cannot be undone.', 'Delete'), 'Delete');
    await messages.ask('info', 'Connect?', undefined, 'Connect');
    assert.deepEqual(seen.shown, [
      {
        kind: 'warning',
        text: 'Delete session "a"?',
        options: { modal: true, detail: 'This cannot be undone.' },
        actions: ['Delete'],
      },
      { kind: 'info', text: 'Connect?', options: { modal: true }, actions: ['Connect'] },
    ]);
    assert.deepEqual(
      messages.since(mark).map((m) => m.modal),
      [true, true],
    );
    messages.dispose();
  });

  it("shows a failure through one path: a UserError's or ToolError's own message, anything else as a failure of what was done", async () => {
    const { module, seen } = loadUserMessages();
    const messages = new module.UserMessages();
    await messages.failure(
      'fdref.retryChat',
      new UserError('"Plans" has no answer to retry yet: send a message first.'),
    );
    await messages.failure('fdref.exportRef', new ToolError('outside_workspace', 'x is outside the workspace.'));
    await messages.failure('The chat "Plans"', new TypeError('boom'));
    await messages.failure('fdref.openRef', 'a string');
    assert.deepEqual(
      seen.shown.map((s) => [s.kind, s.text]),
      [
        ['error', 'FD Refs: "Plans" has no answer to retry yet: send a message first.'],
        ['error', 'FD Refs: x is outside the workspace.'],
        ['error', 'FD Refs: The chat "Plans" failed: boom'],
        ['error', 'FD Refs: fdref.openRef failed: a string'],
      ],
    );
    messages.dispose();
  });

  it('writes to a log output channel: each notification at its level, log lines at theirs, no hand-made prefix', async () => {
    const { module, seen } = loadUserMessages();
    const messages = new module.UserMessages();
    assert.deepEqual(seen.channels, [{ name: 'FD Refs', options: { log: true } }]);
    await messages.info('one');
    await messages.warn('two');
    await messages.error('three');
    messages.log.debug('a detail');
    messages.log.warn('a problem');
    assert.deepEqual(seen.lines, [
      { level: 'info', text: 'FD Refs: one' },
      { level: 'warn', text: 'FD Refs: two' },
      { level: 'error', text: 'FD Refs: three' },
      { level: 'debug', text: 'a detail' },
      { level: 'warn', text: 'a problem' },
    ]);
    messages.dispose();
  });
});
