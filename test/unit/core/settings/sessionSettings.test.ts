import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { retentionLimits, SESSION_SETTINGS } from '../../../../src/core/settings/sessionSettings';

describe('session retention settings', () => {
  it('defaults to 30 days and 2048 MB, exactly as the manifest says', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(path.resolve(__dirname, '../..'), '..', '..', 'package.json'), 'utf8'),
    ) as {
      contributes: { configuration: { properties: Record<string, { default: unknown }> } };
    };
    const properties = manifest.contributes.configuration.properties;
    assert.deepEqual(SESSION_SETTINGS.defaults, { maxDays: 30, maxMegabytes: 2048 });
    for (const key of SESSION_SETTINGS.keys)
      assert.equal(
        properties[`fdref.sessions.${key}`]?.default,
        SESSION_SETTINGS.validate({}).settings[key as 'maxDays'],
      );
  });

  it('reads 0 as no limit and megabytes as bytes', () => {
    assert.deepEqual(retentionLimits({ maxDays: 0, maxMegabytes: 0 }), {});
    assert.deepEqual(retentionLimits({ maxDays: 7, maxMegabytes: 1 }), { maxDays: 7, maxBytes: 1024 * 1024 });
  });

  it('replaces a bad value by the default and says so', () => {
    const { settings, problems } = SESSION_SETTINGS.validate({ maxDays: -1, maxMegabytes: 'lots' });
    assert.deepEqual(settings, { maxDays: 30, maxMegabytes: 2048 });
    assert.equal(problems.length, 2);
    assert.match(problems[0] ?? '', /fdref\.sessions\.maxDays must be a whole number of days from 0 \(no limit\)/);
  });
});
