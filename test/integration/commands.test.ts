import assert from 'node:assert/strict';
import { promises as nodeFs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  closeAllEditors,
  exists,
  fdref,
  inWorkspace,
  messageMark,
  messagesSince,
  readText,
  refBlock,
  sessionWith,
  uniqueId,
  workspaceRoot,
} from './support/fdref';

describe('commands', () => {
  afterEach(closeAllEditors);

  it('registers every command the manifest contributes', async () => {
    await fdref();
    const manifest = vscode.extensions.getExtension('fdref.fdref')!.packageJSON as {
      contributes: { commands: { command: string }[] };
    };
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = manifest.contributes.commands.map((c) => c.command).filter((id) => !registered.has(id));
    assert.deepEqual(missing, []);
  });

  async function refSession() {
    const id = uniqueId('parse_config');
    const entry = await sessionWith(
      `${refBlock(id, 'python', 'def parse():\n    pass')}\n<ref id="${id}_line">inserted line</ref>`,
    );
    return { id, sessionId: entry.metadata.id, entry };
  }

  async function lastError(mark: number): Promise<string> {
    const error = (await messagesSince(mark)).find((m) => m.level === 'error');
    assert.ok(error, 'an error message was shown');
    return error.text;
  }

  describe('Export Ref to File', () => {
    it('writes the ref to a new file, creating its folders', async () => {
      const { id, sessionId } = await refSession();
      const uri = await vscode.commands.executeCommand<vscode.Uri>('fdref.exportRef', {
        sessionId,
        refId: id,
        path: `out/${id}/parse_config.py`,
      });
      assert.equal(uri.fsPath, inWorkspace(`out/${id}/parse_config.py`).fsPath);
      assert.equal(await readText(uri), 'def parse():\n    pass');
    });

    it('replaces an existing file only when told to', async () => {
      const { id, sessionId } = await refSession();
      const target = inWorkspace(`out/${id}.py`);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('keep me'));
      const mark = await messageMark();

      assert.equal(
        await vscode.commands.executeCommand('fdref.exportRef', {
          sessionId,
          refId: id,
          path: `out/${id}.py`,
          overwrite: false,
        }),
        undefined,
      );
      assert.equal(await readText(target), 'keep me');
      assert.match(await lastError(mark), /already exists/);

      await vscode.commands.executeCommand('fdref.exportRef', {
        sessionId,
        refId: id,
        path: `out/${id}.py`,
        overwrite: true,
      });
      assert.equal(await readText(target), 'def parse():\n    pass');
    });

    it('takes the ref from an open fdref: document and suggests a file name from id and language', async () => {
      const { id, sessionId } = await refSession();
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('fdref.openRef', { sessionId, refId: id });
      // As the editor title menu runs it: with the document's URI. The input box shows the suggestion; accept it.
      const pending = Promise.resolve(
        vscode.commands.executeCommand<vscode.Uri | undefined>('fdref.exportRef', editor.document.uri),
      );
      let settled = false;
      void pending.finally(() => (settled = true));
      for (let i = 0; i < 40 && !settled; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      }
      const uri = await pending;
      assert.equal(uri?.fsPath, inWorkspace(`${id}.py`).fsPath);
      assert.equal(await readText(inWorkspace(`${id}.py`)), 'def parse():\n    pass');
    }).timeout(20_000);

    it('refuses a path outside the workspace and writes nothing', async () => {
      const { id, sessionId } = await refSession();
      const outside = path.join(path.dirname(workspaceRoot().fsPath), `${id}-escaped.txt`);
      const mark = await messageMark();
      assert.equal(
        await vscode.commands.executeCommand('fdref.exportRef', { sessionId, refId: id, path: `../${id}-escaped.txt` }),
        undefined,
      );
      assert.equal(await exists(vscode.Uri.file(outside)), false);
      assert.match(await lastError(mark), /outside the workspace/);
    });

    it('refuses a path that leaves the workspace through a symbolic link', async () => {
      const { id, sessionId } = await refSession();
      const elsewhere = await nodeFs.mkdtemp(path.join(os.tmpdir(), 'fdref-elsewhere-'));
      try {
        await nodeFs.symlink(elsewhere, inWorkspace(`link-${id}`).fsPath, 'dir');
        const mark = await messageMark();
        await vscode.commands.executeCommand('fdref.exportRef', { sessionId, refId: id, path: `link-${id}/x.py` });
        assert.deepEqual(await nodeFs.readdir(elsewhere), []);
        assert.match(await lastError(mark), /symbolic link/);
      } finally {
        await nodeFs.rm(elsewhere, { recursive: true, force: true });
      }
    });

    it('reports unknown ids as errors', async () => {
      const { sessionId } = await refSession();
      let mark = await messageMark();
      assert.equal(
        await vscode.commands.executeCommand('fdref.exportRef', { sessionId, refId: 'no_such_ref', path: 'never.txt' }),
        undefined,
      );
      assert.match(await lastError(mark), /ref:no_such_ref does not exist in session/);
      mark = await messageMark();
      await vscode.commands.executeCommand('fdref.exportRef', { refId: uniqueId('nowhere'), path: 'never.txt' });
      assert.match(await lastError(mark), /does not exist in any FD Refs session/);
      assert.equal(await exists(inWorkspace('never.txt')), false);
    });
  });

  describe('Append Ref to File', () => {
    it('adds a line break first when the file does not end with one', async () => {
      const { id, sessionId } = await refSession();
      const target = inWorkspace(`append-${id}.txt`);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('no newline at end'));
      await vscode.commands.executeCommand('fdref.appendRef', { sessionId, refId: `${id}_line`, path: target.fsPath });
      assert.equal(await readText(target), 'no newline at end\ninserted line');
      await vscode.commands.executeCommand('fdref.appendRef', { sessionId, refId: `${id}_line`, path: target.fsPath });
      assert.equal(await readText(target), 'no newline at end\ninserted line\ninserted line');
    });

    it('keeps CRLF line breaks and appends directly after a final newline', async () => {
      const { id, sessionId } = await refSession();
      const crlf = inWorkspace(`crlf-${id}.txt`);
      await vscode.workspace.fs.writeFile(crlf, new TextEncoder().encode('a\r\nb'));
      await vscode.commands.executeCommand('fdref.appendRef', {
        sessionId,
        refId: `${id}_line`,
        path: `crlf-${id}.txt`,
      });
      assert.equal(await readText(crlf), 'a\r\nb\r\ninserted line');
      const ends = inWorkspace(`ends-${id}.txt`);
      await vscode.workspace.fs.writeFile(ends, new TextEncoder().encode('done\n'));
      await vscode.commands.executeCommand('fdref.appendRef', {
        sessionId,
        refId: `${id}_line`,
        path: `ends-${id}.txt`,
      });
      assert.equal(await readText(ends), 'done\ninserted line');
    });
  });

  describe('Insert Ref at Line', () => {
    it('inserts before the given line and keeps the other lines whole', async () => {
      const { id, sessionId } = await refSession();
      const target = inWorkspace(`insert-${id}.txt`);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('one\ntwo\nthree\n'));
      await vscode.commands.executeCommand('fdref.insertRefAtLine', {
        sessionId,
        refId: `${id}_line`,
        path: `insert-${id}.txt`,
        line: 2,
      });
      assert.equal(await readText(target), 'one\ninserted line\ntwo\nthree\n');
    });

    it('refuses a line outside the file and a missing file, writing nothing', async () => {
      const { id, sessionId } = await refSession();
      const target = inWorkspace(`range-${id}.txt`);
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('one\n'));
      let mark = await messageMark();
      await vscode.commands.executeCommand('fdref.insertRefAtLine', {
        sessionId,
        refId: `${id}_line`,
        path: `range-${id}.txt`,
        line: 5,
      });
      assert.match(await lastError(mark), /Line 5 is outside the file/);
      assert.equal(await readText(target), 'one\n');
      mark = await messageMark();
      await vscode.commands.executeCommand('fdref.insertRefAtLine', {
        sessionId,
        refId: `${id}_line`,
        path: `missing-${id}.txt`,
        line: 1,
      });
      assert.match(await lastError(mark), /does not exist/);
      assert.equal(await exists(inWorkspace(`missing-${id}.txt`)), false);
    });
  });

  describe('Insert Ref at Cursor', () => {
    it('replaces the selection in the active editor as one undoable edit', async () => {
      const { id, sessionId } = await refSession();
      const document = await vscode.workspace.openTextDocument(inWorkspace('src/app.ts'));
      const editor = await vscode.window.showTextDocument(document);
      const original = document.getText();
      editor.selection = new vscode.Selection(0, 0, 0, 6); // "export"
      assert.equal(
        await vscode.commands.executeCommand('fdref.insertRefAtCursor', { sessionId, refId: `${id}_line` }),
        true,
      );
      assert.equal(document.lineAt(0).text, 'inserted line function greet(name: string): string {');
      await vscode.commands.executeCommand('undo');
      assert.equal(document.getText(), original);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });

    it('gives a ref of several lines the indentation of the line the cursor is on', async () => {
      const { id, sessionId } = await refSession();
      const document = await vscode.workspace.openTextDocument({ language: 'python', content: 'class A:\n    \n' });
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(1, 4, 1, 4);
      assert.equal(await vscode.commands.executeCommand('fdref.insertRefAtCursor', { sessionId, refId: id }), true);
      assert.equal(document.getText(), 'class A:\n    def parse():\n        pass\n');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });

    it("inserts into the editor beside an open ref when run from the ref's title bar", async () => {
      const { id, sessionId } = await refSession();
      const refEditor = await vscode.commands.executeCommand<vscode.TextEditor>('fdref.openRef', {
        sessionId,
        refId: `${id}_line`,
      });
      const document = await vscode.workspace.openTextDocument(inWorkspace('notes.txt'));
      const target = await vscode.window.showTextDocument(document, vscode.ViewColumn.Two);
      target.selection = new vscode.Selection(1, 0, 1, 0);
      await vscode.window.showTextDocument(refEditor.document, refEditor.viewColumn);
      assert.equal(vscode.window.activeTextEditor?.document.uri.scheme, 'fdref', 'the ref is the active editor');
      assert.equal(await vscode.commands.executeCommand('fdref.insertRefAtCursor', refEditor.document.uri), true);
      assert.equal(document.getText(), 'first line\ninserted linesecond line');
      await vscode.window.showTextDocument(document, vscode.ViewColumn.Two);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    });
  });

  describe('Copy Ref', () => {
    it('copies the ref of an fdref: URI to the clipboard', async () => {
      const { id, sessionId } = await refSession();
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('fdref.openRef', {
        sessionId,
        refId: `${id}_line`,
      });
      assert.equal(await vscode.commands.executeCommand('fdref.copyRef', editor.document.uri), `ref:${id}_line`);
      assert.equal(await vscode.env.clipboard.readText(), 'inserted line');
    });
  });

  describe('Compare with...', () => {
    it('opens a diff of a ref of another session against the fdref: document it runs on', async () => {
      const id = uniqueId('run');
      const first = await sessionWith(`<ref id="${id}_a">ok 1\nok 2\nok 3</ref>`, 'Compare first');
      const second = await sessionWith(`<ref id="${id}_b">ok 1\nnot ok 2\nok 3</ref>`, 'Compare second');
      const editor = await vscode.commands.executeCommand<vscode.TextEditor>('fdref.openRef', {
        sessionId: second.metadata.id,
        refId: `${id}_b`,
      });
      // As the editor title menu runs it (the document's URI), the other side given instead of picked.
      const title = await vscode.commands.executeCommand('fdref.compareWith', editor.document.uri, {
        sessionId: first.metadata.id,
        descriptorId: `ref:${id}_a`,
      });
      assert.equal(title, `ref:${id}_a (Compare first) ↔ ref:${id}_b (Compare second)`);
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is active');
      assert.equal(input.original.scheme, 'fdref');
      assert.match(input.original.path, new RegExp(`/refs/${id}_a\\.txt$`));
      assert.match(input.modified.path, new RegExp(`/refs/${id}_b\\.txt$`));
      const original = await vscode.workspace.openTextDocument(input.original);
      assert.equal(original.getText(), 'ok 1\nok 2\nok 3');
    });

    it('compares a tree item with a workspace file picked in the quick pick', async () => {
      const id = uniqueId('picked');
      const entry = await sessionWith(`<ref id="${id}">from the store</ref>`);
      // As the tree runs it (its item's ids); the quick pick's first item is "A Workspace File...", then a file.
      const pending = Promise.resolve(
        vscode.commands.executeCommand<string | undefined>('fdref.compareWith', {
          sessionId: entry.metadata.id,
          descriptorId: `ref:${id}`,
        }),
      );
      let settled = false;
      void pending.finally(() => (settled = true));
      for (let i = 0; i < 40 && !settled; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      }
      const title = await pending;
      assert.match(title ?? '', new RegExp(` ↔ ref:${id} \\(Test session\\)$`));
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is active');
      assert.equal(input.original.scheme, 'file');
      assert.ok(input.original.fsPath.startsWith(workspaceRoot().fsPath), input.original.fsPath);
      assert.match(input.modified.path, new RegExp(`/refs/${id}\\.txt$`));
    }).timeout(20_000);
  });

  describe('Compare Ref with Previous Version', () => {
    it('opens a diff of the previous version against the ref', async () => {
      const id = uniqueId('compared');
      const entry = await sessionWith(`<ref id="${id}">old</ref><ref id="${id}">new</ref>`);
      const title = await vscode.commands.executeCommand('fdref.compareRefWithPrevious', {
        sessionId: entry.metadata.id,
        refId: id,
      });
      assert.equal(title, `ref:${id}: v1 ↔ v2`);
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      assert.ok(input instanceof vscode.TabInputTextDiff, 'a diff editor is active');
      assert.match(input.original.path, new RegExp(`/refs/${id}@1\\.txt$`));
      assert.match(input.modified.path, new RegExp(`/refs/${id}\\.txt$`));
    });

    it('says so when there is no earlier version', async () => {
      const id = uniqueId('single');
      const entry = await sessionWith(`<ref id="${id}">only</ref>`);
      const mark = await messageMark();
      assert.equal(
        await vscode.commands.executeCommand('fdref.compareRefWithPrevious', {
          sessionId: entry.metadata.id,
          refId: id,
        }),
        undefined,
      );
      assert.match(await lastError(mark), /no earlier version/);
    });
  });
});
