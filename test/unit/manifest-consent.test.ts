import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

interface Manifest {
  contributes: { configuration: { properties: Record<string, { scope?: string }> } };
}

describe('settings that skip a consent', () => {
  it('are application-wide: no workspace, trusted or not, can let a model write or run without asking', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
    const skipping = Object.entries(manifest.contributes.configuration.properties).filter(([key]) =>
      /autoApprove/i.test(key),
    );
    assert.deepEqual(
      skipping.map(([key]) => key),
      ['fdref.chat.autoApproveWrites', 'fdref.chat.autoApproveCommands', 'fdref.chat.autoApproveTools'],
    );
    for (const [key, property] of skipping)
      assert.equal(property.scope, 'application', `${key} is not application-wide`);
  });
});
