import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

describe('the extension host', () => {
  it('runs inside a real VS Code with the fdref extension loaded', async () => {
    const extension = vscode.extensions.getExtension('fdref.fdref');
    assert.ok(extension, 'fdref.fdref is installed');
    await extension.activate();
    assert.equal(extension.isActive, true);
    assert.match(vscode.version, /^1\.\d+\.\d+/);
  });
});
