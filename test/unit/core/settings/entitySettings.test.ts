import assert from 'node:assert/strict';
import { DEFAULT_ENTITY_SETTINGS, validateEntitySettings } from '../../../../src/core/settings/entitySettings';

describe('entity settings', () => {
  it('uses the defaults when nothing is set', () => {
    assert.deepEqual(validateEntitySettings({}), { settings: DEFAULT_ENTITY_SETTINGS, problems: [] });
  });

  it('takes valid values, dropping a trailing slash from the URL', () => {
    const { settings, problems } = validateEntitySettings({
      apiBaseUrl: 'https://api.example.test:1317/',
      'hover.enabled': false,
      maxParallel: 8,
      timeoutMs: 500,
      cacheTtlSeconds: 0,
      referenceDepth: 2,
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      apiBaseUrl: 'https://api.example.test:1317',
      hoverEnabled: false,
      maxParallel: 8,
      timeoutMs: 500,
      cacheTtlSeconds: 0,
      referenceDepth: 2,
    });
  });

  it('replaces each bad value by its default and says which, why and what it uses', () => {
    const { settings, problems } = validateEntitySettings({
      apiBaseUrl: 'ftp://x',
      'hover.enabled': 'yes',
      maxParallel: 0,
      timeoutMs: 1.5,
      cacheTtlSeconds: -1,
      referenceDepth: 3,
    });
    assert.deepEqual(settings, DEFAULT_ENTITY_SETTINGS);
    assert.equal(problems.length, 6);
    assert.match(
      problems[0] ?? '',
      /fdref\.entities\.apiBaseUrl must be an http:\/\/ or https:\/\/ URL \(got "ftp:\/\/x"\); using "http:\/\/localhost:1317"/,
    );
    assert.match(problems[2] ?? '', /maxParallel must be a whole number from 1 to 50 \(got 0\); using 5/);
    assert.match(problems[5] ?? '', /referenceDepth must be 0, 1 or 2 \(got 3\); using 1/);
  });

  it('refuses URLs that carry credentials or are not URLs at all', () => {
    assert.equal(validateEntitySettings({ apiBaseUrl: 'http://user:pw@host' }).problems.length, 1);
    assert.equal(validateEntitySettings({ apiBaseUrl: 'localhost:1317' }).problems.length, 1);
  });

  it('quotes a short prefix of a huge bad value, as the chat settings do', () => {
    const huge = 'x'.repeat(1_000_000);
    const { settings, problems } = validateEntitySettings({ apiBaseUrl: huge, maxParallel: [[[[huge]]]] });
    assert.deepEqual(settings, DEFAULT_ENTITY_SETTINGS);
    assert.equal(problems.length, 2);
    for (const problem of problems) assert.ok(problem.length < 400, `${problem.length} characters`);
    assert.match(
      problems[0] ?? '',
      /^fdref\.entities\.apiBaseUrl must be an http:\/\/ or https:\/\/ URL \(got "x{80}"… \(1000000 characters\)\); using "http:\/\/localhost:1317"$/,
    );
  });
});
