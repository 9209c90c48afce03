import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TreeNode } from '../../src/tree/treeNodes';
import { fdref, refBlock, sessionWith, uniqueId } from './support/fdref';

describe('sessions view', () => {
  it('lists sessions, newest first, each with its refs and then its descriptors', async () => {
    const api = await fdref();
    const id = uniqueId('tree');
    const entry = await sessionWith(
      `${refBlock(id, 'python', 'a = 1\nb = 2')}\n${refBlock(id, 'python', 'a = 1\nb = 2\nc = 3')}\n<ref id="${id}_x">x</ref>`,
      'Tree test',
    );
    entry.session.wrapToolOutput('read_file', 'y'.repeat(9000));
    await (await fdref()).registry.changed(entry.metadata.id, { descriptors: true }); // saved, so the store shows it

    const roots = await api.tree.getChildren();
    assert.deepEqual(roots[0], { kind: 'session', sessionId: entry.metadata.id }, 'the newest session comes first');
    const sessionItem = await api.tree.getTreeItem(roots[0]);
    assert.equal(sessionItem.label, 'Tree test');
    assert.equal(sessionItem.contextValue, 'fdref.session');
    assert.equal(sessionItem.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);

    const children = await api.tree.getChildren(roots[0]);
    assert.deepEqual(
      children.map((c) => (c.kind === 'descriptor' ? c.descriptorId : c.kind)),
      [`ref:${id}`, `ref:${id}_x`, 'fd:1'],
    );
  });

  it('describes refs by language, lines and version, and opens them on click', async () => {
    const api = await fdref();
    const id = uniqueId('item');
    const entry = await sessionWith(
      `${refBlock(id, 'python', 'v1')}\n${refBlock(id, 'python', 'a = 1\nb = 2')}\n<ref id="${id}_once">once</ref>`,
    );
    entry.session.wrapToolOutput('run_tests', 'z'.repeat(9000));
    await (await fdref()).registry.changed(entry.metadata.id, { descriptors: true }); // saved, so the store shows it
    const node = (descriptorId: string): TreeNode => ({
      kind: 'descriptor',
      sessionId: entry.metadata.id,
      descriptorId,
    });

    const ref = await api.tree.getTreeItem(node(`ref:${id}`));
    assert.equal(ref.label, id);
    assert.equal(ref.description, 'python · 2 lines · v2');
    assert.equal(ref.contextValue, 'fdref.ref.versioned');
    assert.equal(ref.command?.command, 'fdref.openRef');
    assert.deepEqual(ref.command?.arguments, [node(`ref:${id}`)]);
    assert.equal(ref.resourceUri?.scheme, 'fdref');

    const once = await api.tree.getTreeItem(node(`ref:${id}_once`));
    assert.equal(once.description, 'text · 1 line · v1');
    assert.equal(once.contextValue, 'fdref.ref');

    const fd = await api.tree.getTreeItem(node('fd:1'));
    assert.equal(fd.label, 'fd:1');
    assert.equal(fd.description, 'tool_output (run_tests) · 8.8 KB');
    assert.equal(fd.contextValue, 'fdref.descriptor');
  });

  it('refreshes when the registry changes', async () => {
    const api = await fdref();
    let fired = 0;
    const subscription = api.tree.onDidChangeTreeData(() => fired++);
    try {
      await sessionWith(`<ref id="${uniqueId('refresh')}">x</ref>`);
      assert.ok(fired >= 2, `fired ${fired} times`);
      await vscode.commands.executeCommand('fdref.refreshSessions');
      assert.ok(fired >= 3);
    } finally {
      subscription.dispose();
    }
  });

  it('runs item commands with the item as argument, skipping the pick', async () => {
    const id = uniqueId('copy');
    const entry = await sessionWith(`<ref id="${id}">copied text</ref>`);
    const copied = await vscode.commands.executeCommand('fdref.copyRef', {
      kind: 'descriptor',
      sessionId: entry.metadata.id,
      descriptorId: `ref:${id}`,
    });
    assert.equal(copied, `ref:${id}`);
    assert.equal(await vscode.env.clipboard.readText(), 'copied text');
  });
});
