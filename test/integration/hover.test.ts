import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, fdref, inWorkspace, refBlock, sessionWith, uniqueId } from './support/fdref';

describe('hovers', () => {
  afterEach(closeAllEditors);

  async function hoverAt(content: string, needle: string, extension = 'md', untitled = false): Promise<string[]> {
    // Files by default: a new untitled document may reuse the name of one just closed, whose text the host may still hold.
    const uri = inWorkspace(`hovers/${uniqueId('hover')}.${extension}`);
    if (!untitled) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
    const document = untitled
      ? await vscode.workspace.openTextDocument({ content })
      : await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const position = document.positionAt(content.indexOf(needle) + 2);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      document.uri,
      position,
    );
    return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
  }

  it('shows the id, the first lines in a fenced block and a link that opens the ref', async () => {
    const id = uniqueId('hovered');
    const entry = await sessionWith(refBlock(id, 'python', 'def parse():\n    return 1'));
    const contents = (await hoverAt(`Use ref:${id} here.`, `ref:${id}`)).join('\n');
    assert.match(contents, new RegExp(`\\*\\*ref:${id}\\*\\*`));
    assert.match(contents, /```python\ndef parse\(\):\n {4}return 1\n```/);
    const args = encodeURIComponent(JSON.stringify([{ sessionId: entry.metadata.id, descriptorId: `ref:${id}` }]));
    assert.ok(contents.includes(`command:fdref.openRef?${args}`), contents);
  });

  it('shows earlier versions and fd descriptors, also at the end of a sentence', async () => {
    const id = uniqueId('versioned');
    const entry = await sessionWith(`<ref id="${id}">first</ref><ref id="${id}">second</ref>`);
    entry.session.wrapToolOutput('read_file', `${'q'.repeat(9000)}`);
    await (await fdref()).registry.changed(entry.metadata.id, { descriptors: true }); // saved, so the store shows it
    assert.match((await hoverAt(`see ref:${id}@1.`, `ref:${id}@1`, 'txt')).join('\n'), /first/);
    const fdId = entry.session.descriptors().at(-1)!.id;
    assert.match((await hoverAt(`and ${fdId}.`, fdId, 'ts')).join('\n'), new RegExp(`\\*\\*${fdId}\\*\\*`));
  });

  it('works in untitled documents too', async () => {
    const id = uniqueId('untitled');
    await sessionWith(`<ref id="${id}">in an untitled document</ref>`);
    assert.match((await hoverAt(`look at ref:${id}`, `ref:${id}`, 'md', true)).join('\n'), /in an untitled document/);
  });

  it('uses the most recently created session when several hold the id', async () => {
    const id = uniqueId('shared');
    await sessionWith(`<ref id="${id}">older session</ref>`);
    await sessionWith(`<ref id="${id}">newer session</ref>`);
    const contents = (await hoverAt(`ref:${id}`, `ref:${id}`)).join('\n');
    assert.match(contents, /newer session/);
    assert.doesNotMatch(contents, /older session/);
  });

  it('shows nothing for ids that no session has', async () => {
    const contents = await hoverAt(`ref:${uniqueId('unknown')} and fd:99999`, 'ref:');
    assert.ok(!contents.some((c) => c.includes('fdref.openRef')), contents.join('\n'));
  });
});
