import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ApplyRefToSymbolResult } from '../../src/commands/applyRefToSymbol';
import {
  closeAllEditors,
  eventually,
  inWorkspace,
  messageMark,
  messagesSince,
  readText,
  refBlock,
  sessionWith,
  uniqueId,
} from './support/fdref';

/** Writes `text` to a new workspace file and shows it in the active editor. */
async function editorWith(relative: string, text: string): Promise<vscode.TextEditor> {
  const uri = inWorkspace(relative);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
}

/**
 * Whether VS Code's refactor preview shows a change of `file`: it keeps a model of each changed file under its own
 * scheme, at the file's path.
 */
function previewShown(file: vscode.Uri): () => true | undefined {
  return () =>
    vscode.workspace.textDocuments.some(
      (d) => d.uri.scheme === 'vscode-bulkeditpreview-editor' && d.uri.path === file.path,
    )
      ? true
      : undefined;
}

/** Ticks the changes in the refactor preview (a click on its first row's box) and presses Apply, as a user does. */
async function tickAndApply(): Promise<void> {
  await vscode.commands.executeCommand('refactorPreview.focus');
  await vscode.commands.executeCommand('list.focusFirst');
  await vscode.commands.executeCommand('refactorPreview.toggleCheckedState');
  await vscode.commands.executeCommand('refactorPreview.apply');
}

const TYPESCRIPT = [
  'export function greet(name: string): string {',
  '  return name;',
  '}',
  '',
  'export class Greeter {',
  '  hello(): string {',
  "    return 'hi';",
  '  }',
  '',
  '  bye(): string {',
  "    return 'bye';",
  '  }',
  '}',
  '',
].join('\n');

describe('Apply Ref to Symbol', () => {
  afterEach(closeAllEditors);

  it('replaces a TypeScript function as one edit that one undo takes back', async () => {
    const id = uniqueId('greet');
    const entry = await sessionWith(
      refBlock(id, 'typescript', 'export function greet(name: string): string {\n  return `Hello, ${name}!`;\n}'),
    );
    const editor = await editorWith(`apply-${id}.ts`, TYPESCRIPT);
    const result = await vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
      sessionId: entry.metadata.id,
      refId: id,
      confirmed: true,
    });
    assert.deepEqual(result, { applied: true, replaced: ['greet'] });
    assert.equal(editor.document.getText(), TYPESCRIPT.replace('  return name;', '  return `Hello, ${name}!`;'));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.equal(editor.document.getText(), TYPESCRIPT);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('replaces a class method given on its own, with the indentation of the method it replaces', async () => {
    const id = uniqueId('hello');
    const entry = await sessionWith(refBlock(id, 'typescript', "hello(): string {\n  return 'hello, world';\n}"));
    const editor = await editorWith(`apply-${id}.ts`, TYPESCRIPT);
    const result = await vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
      sessionId: entry.metadata.id,
      refId: id,
      confirmed: true,
    });
    assert.deepEqual(result, { applied: true, replaced: ['Greeter.hello'] });
    assert.equal(editor.document.getText(), TYPESCRIPT.replace("    return 'hi';", "    return 'hello, world';"));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('changes nothing when the refactor preview is discarded', async () => {
    const id = uniqueId('greet');
    const entry = await sessionWith(refBlock(id, 'typescript', 'function greet() {\n  return 1;\n}'));
    const editor = await editorWith(`apply-${id}.ts`, TYPESCRIPT);
    let settled = false;
    const running = Promise.resolve(
      vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
        sessionId: entry.metadata.id,
        refId: id,
      }),
    ).finally(() => (settled = true));
    // Discard (its button's command) until the command that opened the preview has its answer: discarding when no
    // preview is shown does nothing, so this needs no sign that the preview is up.
    await eventually(
      async () => {
        if (!settled) await vscode.commands.executeCommand('refactorPreview.discard');
        return settled ? true : undefined;
      },
      'the refactor preview to be discarded',
      20_000,
    );
    const result = await running;
    assert.deepEqual(result, { applied: false, replaced: [] });
    assert.equal(editor.document.getText(), TYPESCRIPT);
    assert.equal(await readText(editor.document.uri), TYPESCRIPT);
  });

  it('shows the change in the refactor preview and applies it once ticked and accepted', async () => {
    const id = uniqueId('greet');
    const entry = await sessionWith(
      refBlock(id, 'typescript', 'function greet(name: string) {\n  return name + 1;\n}'),
    );
    const editor = await editorWith(`apply-${id}.ts`, TYPESCRIPT);
    const running = vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
      sessionId: entry.metadata.id,
      refId: id,
    });
    await eventually(previewShown(editor.document.uri), 'the refactor preview', 20_000);
    assert.equal(editor.document.getText(), TYPESCRIPT, 'nothing changes before the preview is accepted');
    await tickAndApply();
    assert.deepEqual(await running, { applied: true, replaced: ['greet'] });
    assert.ok(editor.document.getText().includes('  return name + 1;'));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('applies nothing when the file changed between the preview and Apply (VS Code refuses the stale change)', async () => {
    const id = uniqueId('greet');
    const entry = await sessionWith(
      refBlock(id, 'typescript', 'function greet(name: string) {\n  return name + 2;\n}'),
    );
    const editor = await editorWith(`apply-${id}.ts`, TYPESCRIPT);
    const running = vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
      sessionId: entry.metadata.id,
      refId: id,
    });
    await eventually(previewShown(editor.document.uri), 'the refactor preview', 20_000);
    const meanwhile = new vscode.WorkspaceEdit();
    meanwhile.insert(editor.document.uri, new vscode.Position(0, 0), '// changed meanwhile\n');
    assert.equal(await vscode.workspace.applyEdit(meanwhile), true);
    await tickAndApply();
    assert.deepEqual(await running, { applied: false, replaced: [] });
    assert.equal(editor.document.getText(), `// changed meanwhile\n${TYPESCRIPT}`);
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it("replaces a JSON property's value by its key, in a file named by path", async () => {
    const id = uniqueId('server');
    const json = '{\n  "name": "demo",\n  "server": {\n    "port": 80\n  },\n  "debug": false\n}\n';
    await vscode.workspace.fs.writeFile(inWorkspace(`apply-${id}.json`), new TextEncoder().encode(json));
    const entry = await sessionWith(
      refBlock(id, 'json', '{\n  "server": {\n    "port": 8080,\n    "host": "example.org"\n  }\n}'),
    );
    const result = await vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
      sessionId: entry.metadata.id,
      refId: id,
      path: `apply-${id}.json`,
      confirmed: true,
    });
    assert.deepEqual(result, { applied: true, replaced: ['server'] });
    const document = await vscode.workspace.openTextDocument(inWorkspace(`apply-${id}.json`));
    assert.equal(
      document.getText(),
      '{\n  "name": "demo",\n  "server": {\n    "port": 8080,\n    "host": "example.org"\n  },\n  "debug": false\n}\n',
    );
  });

  it('says so and changes nothing when the language has no symbol provider (Python here)', async () => {
    const id = uniqueId('parse_config');
    const python = 'def parse_config(path):\n    return {}\n';
    const entry = await sessionWith(refBlock(id, 'python', 'def parse_config(path):\n    return {"path": path}'));
    const editor = await editorWith(`app-${id}.py`, python);
    const mark = await messageMark();
    const result = await vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
      sessionId: entry.metadata.id,
      refId: id,
    });
    assert.equal(result?.applied, false);
    assert.match(
      result?.message ?? '',
      new RegExp(`^No symbol named ${id} in app-${id}\\.py; the python language has no symbol provider here`),
    );
    const shown = (await messagesSince(mark)).map((m) => m.text);
    assert.ok(
      shown.some((text) => text.includes(`No symbol named ${id}`)),
      shown.join('\n'),
    );
    assert.equal(editor.document.getText(), python);
  });

  it('names the symbol it did not find when the language has a provider', async () => {
    const id = uniqueId('missing');
    const entry = await sessionWith(refBlock(id, 'typescript', 'function notThere() {\n  return 1;\n}'));
    const editor = await editorWith(`apply-${id}.ts`, TYPESCRIPT);
    const result = await vscode.commands.executeCommand<ApplyRefToSymbolResult>('fdref.applyRefToSymbol', {
      sessionId: entry.metadata.id,
      refId: id,
    });
    assert.equal(result?.applied, false);
    assert.match(result?.message ?? '', new RegExp(`^No symbol named notThere in apply-${id}\\.ts`));
    assert.equal(editor.document.getText(), TYPESCRIPT);
  });
});
