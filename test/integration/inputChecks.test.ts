import * as assert from 'node:assert/strict';
import { promises as nodeFs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  apiKeyValidation,
  entityIdProblem,
  insertLineValidation,
  lineCountOfFile,
  sessionNameProblem,
  sessionsByName,
  workspacePathValidation,
  type Validation,
} from '../../src/commands/inputValidation';
import { shownPath } from '../../src/common/workspacePaths';
import { WorkspaceWriter } from '../../src/workspace/workspaceWriter';
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
import { setSetting } from './support/settings';

// The input boxes cannot be typed into from the extension host, so each check is run here as the box runs it (the
// exported `validateInput` over the real workspace, store and settings), and the same input given to the real
// command as an argument must fail with the same words. The UI test types into the boxes themselves.

function text(validation: Validation): string | undefined {
  return typeof validation === 'object' ? validation.message : validation;
}

function severity(validation: Validation): vscode.InputBoxValidationSeverity | undefined {
  if (validation === undefined) return undefined;
  return typeof validation === 'string' ? vscode.InputBoxValidationSeverity.Error : validation.severity;
}

async function lastMessage(mark: number, level: 'error' | 'info'): Promise<string> {
  const message = (await messagesSince(mark)).find((m) => m.level === level);
  assert.ok(message, `an ${level} message was shown`);
  return message.text;
}

describe('input boxes check as the user types', () => {
  const writer = new WorkspaceWriter();
  afterEach(closeAllEditors);

  async function refSession() {
    const id = uniqueId('checked');
    const entry = await sessionWith(refBlock(id, 'python', 'x = 1'));
    return { id, sessionId: entry.metadata.id };
  }

  it('a line past the end of the file says how many lines it has, as Insert Ref at Line then does', async () => {
    const { id, sessionId } = await refSession();
    const relative = `checks/${id}.txt`;
    await vscode.workspace.fs.writeFile(
      inWorkspace(relative),
      new TextEncoder().encode(Array.from({ length: 42 }, (_, i) => `line ${i + 1}`).join('\n') + '\n'),
    );
    const lines = await lineCountOfFile(writer, inWorkspace(relative).fsPath);
    assert.equal(lines, 42);
    const validate = insertLineValidation(lines);
    assert.equal(validate('43'), undefined, 'one past the last line appends');
    assert.equal(validate('1'), undefined);
    const past = text(validate('50'));
    assert.equal(
      past,
      'Line 50 is outside the file. The file has 42 lines, so line must be 1-43 (43 appends at the end).',
    );
    assert.equal(text(validate('0')), 'Enter a line number, 1 or more.');
    assert.equal(text(validate('two')), 'Enter a line number, 1 or more.');

    const mark = await messageMark();
    const result = await vscode.commands.executeCommand('fdref.insertRefAtLine', {
      sessionId,
      refId: id,
      path: relative,
      line: 50,
    });
    assert.equal(result, undefined);
    assert.match(await lastMessage(mark, 'error'), new RegExp(past.replace(/[.()]/g, '\\$&')));
  });

  it('Insert Ref at Line checks the file before asking for the line', async () => {
    const { id, sessionId } = await refSession();
    const mark = await messageMark();
    // Without `line` the command would ask for it and wait: it must fail first, naming the path as given.
    const result = await vscode.commands.executeCommand('fdref.insertRefAtLine', {
      sessionId,
      refId: id,
      path: `checks/${id}-missing.txt`,
    });
    assert.equal(result, undefined);
    assert.equal(
      await lastMessage(mark, 'error'),
      `FD Refs: checks/${id}-missing.txt does not exist and create is false.`,
    );
  });

  it('a path is checked as the write checks it: outside, through a link, a folder, a bad name, a missing file', async () => {
    const id = uniqueId('path');
    const elsewhere = await nodeFs.mkdtemp(path.join(os.tmpdir(), 'fdref-elsewhere-'));
    try {
      await nodeFs.mkdir(inWorkspace(`checks/${id}`).fsPath, { recursive: true });
      await nodeFs.writeFile(inWorkspace(`checks/${id}/there.txt`).fsPath, 'x\n');
      await nodeFs.symlink(elsewhere, inWorkspace(`checks/${id}/link`).fsPath, 'dir');
      const forWrite = workspacePathValidation(writer, { label: 'ref:x' });
      const forInsert = workspacePathValidation(writer, { label: 'ref:x', create: false, existOk: true });
      const outside = path.join(path.dirname(workspaceRoot().fsPath), 'escaped.txt');
      const expectations: [(value: string) => Promise<Validation>, string, RegExp | undefined][] = [
        [forWrite, '', /^Enter a file path\.$/],
        [forWrite, `checks/${id}/new/file.txt`, undefined],
        [forWrite, '../escaped.txt', new RegExp(`resolves to ${outside.replace(/[.]/g, '\\.')}, which is outside`)],
        [forWrite, outside, /outside the workspace/],
        [forWrite, `checks/${id}/link/x.txt`, /symbolic link .*outside the workspace/],
        [forWrite, `checks/${id}`, new RegExp(`^checks/${id} is a folder; give a file path inside it\\.$`)],
        [forWrite, `checks/${id}/`, /ends with a slash, so it names a folder/],
        [forWrite, `checks/${'n'.repeat(300)}.txt`, /file names can be at most 255/],
        [forWrite, `checks/${id}/there.txt/inner.txt`, new RegExp(`^checks/${id}/there\\.txt is a file, not a folder`)],
        [forInsert, `checks/${id}/none.txt`, new RegExp(`^checks/${id}/none\\.txt does not exist and create is false`)],
        [forInsert, `checks/${id}/there.txt`, undefined],
      ];
      for (const [validate, value, expected] of expectations) {
        const message = text(await validate(value));
        if (expected === undefined) assert.equal(message, undefined, value);
        else assert.match(message ?? '(accepted)', expected, value);
      }
      assert.equal(await exists(inWorkspace(`checks/${id}/new`)), false, 'checking creates no folder');
      assert.deepEqual(await nodeFs.readdir(elsewhere), []);

      // Export warns (without refusing) that it will ask before replacing a file.
      const forExport = workspacePathValidation(
        writer,
        { label: 'ref:x', existOk: true },
        (shown) => `${shown} exists`,
      );
      const warning = await forExport(`checks/${id}/there.txt`);
      assert.equal(text(warning), `checks/${id}/there.txt exists`);
      assert.equal(severity(warning), vscode.InputBoxValidationSeverity.Warning);
    } finally {
      await nodeFs.rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('a session name another session has is refused, in the box and by Rename Session', async () => {
    const api = await fdref();
    const taken = uniqueId('Taken name');
    const first = await api.registry.create(taken, { kind: 'chat' });
    const second = await api.registry.create(uniqueId('Other'), { kind: 'chat' });
    const others = sessionsByName(await api.registry.list());
    const secondMeta = (await api.registry.meta(second.metadata.id))!;
    const problem = sessionNameProblem(` ${taken.toUpperCase()} `, secondMeta, others);
    assert.match(problem ?? '', new RegExp(`Another session is named .*${first.metadata.id}`));
    assert.equal(sessionNameProblem('', secondMeta, others), 'A session name cannot be empty.');
    assert.equal(sessionNameProblem(secondMeta.name, secondMeta, others), undefined, 'its own name is fine');
    assert.equal(sessionNameProblem(uniqueId('Fresh'), secondMeta, others), undefined);

    const mark = await messageMark();
    const renamed = await vscode.commands.executeCommand('fdref.renameSession', {
      sessionId: second.metadata.id,
      name: taken,
    });
    assert.equal(renamed, undefined);
    assert.match(await lastMessage(mark, 'error'), /Another session is named/);
    assert.equal((await api.registry.meta(second.metadata.id))?.name, secondMeta.name, 'the name is unchanged');
  });

  it('an entity id is checked by the core rule, in the box and by Open Entity', async () => {
    assert.equal(entityIdProblem('2-1'), undefined);
    assert.equal(entityIdProblem(' 2-1 '), undefined);
    assert.equal(entityIdProblem(''), 'Enter an entity id such as 2-1.');
    assert.match(entityIdProblem('12-1') ?? '', /is not a Structs entity id: ids look like 2-1/);
    assert.match(entityIdProblem('ref:x') ?? '', /is not a Structs entity id/);
    const mark = await messageMark();
    assert.equal(await vscode.commands.executeCommand('fdref.openEntity', '2-0'), undefined);
    assert.match(await lastMessage(mark, 'error'), /is not a Structs entity id/);
  });

  it('an API key is checked without repeating it, and a malformed one is not stored', async () => {
    const validate = apiKeyValidation('Loopback', 'anthropic');
    assert.equal(severity(validate('')), vscode.InputBoxValidationSeverity.Info, 'empty removes the key');
    assert.match(text(validate('')) ?? '', /removes the stored key of "Loopback"/);
    assert.equal(validate('sk-ant-api03-abc'), undefined);
    const secret = 'sk-ant-secret value';
    assert.equal(severity(validate(secret)), vscode.InputBoxValidationSeverity.Error);
    assert.ok(!(text(validate(secret)) ?? '').includes('secret'), 'the key is not shown');
    assert.equal(severity(validate('sk-other')), vscode.InputBoxValidationSeverity.Warning);

    await setSetting('fdref.chat.endpoints', [
      { name: 'Key check', protocol: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' },
    ]);
    try {
      const mark = await messageMark();
      const stored = await vscode.commands.executeCommand('fdref.setApiKey', {
        endpoint: 'Key check',
        key: '"quoted"',
      });
      assert.equal(stored, undefined);
      const error = await lastMessage(mark, 'error');
      assert.match(error, /was not stored: Leave out the quotes/);
      assert.ok(!error.includes('quoted'), 'the key is not shown');
    } finally {
      await setSetting('fdref.chat.endpoints', undefined);
    }
  });
});

describe('messages name workspace files relative to the workspace folder', () => {
  afterEach(closeAllEditors);

  it('Export, Append and Insert say where they wrote relative to the folder', async () => {
    const id = uniqueId('relative');
    const { metadata } = await sessionWith(refBlock(id, 'python', 'x = 1'));
    const sessionId = metadata.id;
    const relative = `out/${id}/r.py`;
    let mark = await messageMark();
    await vscode.commands.executeCommand('fdref.exportRef', { sessionId, refId: id, path: relative });
    const exported = await lastMessage(mark, 'info');
    assert.equal(exported, `FD Refs: Wrote ref:${id} (5 characters) to ${relative}.`);
    assert.ok(!exported.includes(workspaceRoot().fsPath), 'no absolute path');

    mark = await messageMark();
    await vscode.commands.executeCommand('fdref.appendRef', { sessionId, refId: id, path: relative });
    assert.match(
      await lastMessage(mark, 'info'),
      new RegExp(`^FD Refs: Appended ref:${id} .* to ${relative}, after adding`),
    );

    mark = await messageMark();
    await vscode.commands.executeCommand('fdref.insertRefAtLine', { sessionId, refId: id, path: relative, line: 1 });
    assert.equal(
      await lastMessage(mark, 'info'),
      `FD Refs: Inserted ref:${id} (5 characters) before line 1 of ${relative}.`,
    );
    assert.equal(await readText(inWorkspace(relative)), 'x = 1\nx = 1\nx = 1');

    mark = await messageMark();
    await vscode.commands.executeCommand('fdref.exportRef', { sessionId, refId: id, path: relative, overwrite: false });
    assert.equal(await lastMessage(mark, 'error'), `FD Refs: ${relative} already exists and exist_ok is false.`);
  });

  it('one helper names inside files relative (with the folder name when there are several) and others absolute', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const first = folders[0]!;
    const inside = vscode.Uri.joinPath(first.uri, 'a', 'b.txt');
    assert.equal(shownPath(inside), folders.length > 1 ? `${first.name}/a/b.txt` : 'a/b.txt');
    assert.equal(shownPath(inside.fsPath), shownPath(inside));
    const outside = path.join(os.tmpdir(), 'fdref-not-in-the-workspace.txt');
    assert.equal(shownPath(outside), outside);
    assert.equal(shownPath(vscode.Uri.parse('fdref:/s/refs/x.py')), 'fdref:/s/refs/x.py');
  });
});
