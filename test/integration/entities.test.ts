import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { freePort } from '../support/freePort.mjs';
import { useStructsApi } from '../support/mochaHooks';
import { fdref, inWorkspace, messageMark, messagesSince, uniqueId } from './support/fdref';
import { setSetting } from './support/settings';

/** Writes `text` to a new workspace file, opens it, and returns the hovers at the first `needle`. */
async function hoversAt(extension: string, text: string, needle: string): Promise<string[]> {
  const uri = inWorkspace(`entities/${uniqueId('hover')}.${extension}`);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const document = await vscode.workspace.openTextDocument(uri);
  const position = document.positionAt(text.indexOf(needle) + 1);
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers.flatMap((hover) =>
    hover.contents.map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : '')),
  );
}

describe('Structs entity references', function () {
  this.timeout(60_000);
  const api = useStructsApi();

  before(async () => {
    await setSetting('fdref.entities.apiBaseUrl', api.baseUrl);
  });

  after(async () => {
    await setSetting('fdref.entities.apiBaseUrl', undefined);
    await setSetting('fdref.entities.maxParallel', undefined);
  });

  it('shows the entity from the API when hovering its id in a JSON file', async () => {
    const player = api.idsOf('player')[0] as string;
    const hovers = await hoversAt('json', `{\n  "owner": "${player}"\n}\n`, player);
    const hover = hovers.find((h) => h.includes('Player'));
    assert.ok(hover, `a player hover among ${JSON.stringify(hovers)}`);
    assert.ok(hover.includes(`Player ${player.replace('-', '\\-')}`));
    assert.match(hover, /\| field \| value \|/);
    assert.match(hover, /\[Open as JSON\]\(command:fdref\.openEntity/);
  });

  it('shows it in a TypeScript file too, and a second hover costs no request', async () => {
    const planet = api.idsOf('planet')[0] as string;
    api.resetStats();
    const text = `const home = '${planet}';\n`;
    const first = await hoversAt('ts', text, planet);
    assert.ok(
      first.some((h) => h.includes('Planet')),
      JSON.stringify(first),
    );
    await hoversAt('ts', text, planet);
    assert.equal(api.stats.perId.get(planet), 1);
  });

  it('opens an entity as JSON with its references', async () => {
    const planet = api.idsOf('planet')[1] as string;
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('fdref.openEntity', planet);
    assert.equal(editor.document.uri.toString(), `fdref:/entities/${planet}.json`);
    const json = JSON.parse(editor.document.getText());
    assert.equal(json.id, planet);
    assert.equal(json.reference_status, 'resolved');
    assert.ok(
      ['active', 'complete'].includes(json.status),
      `the planet's own status, got ${JSON.stringify(json.status)}`,
    );
    assert.ok(json.references && Object.keys(json.references).length > 0, 'a references section');
  });

  it('adds a references section to the active JSON document and opens it beside', async () => {
    const player = api.idsOf('player')[2] as string;
    const planet = api.idsOf('planet')[2] as string;
    const uri = inWorkspace(`entities/${uniqueId('payload')}.json`);
    await vscode.workspace.fs.writeFile(
      uri,
      new TextEncoder().encode(JSON.stringify({ fleet: { owner: player, locationId: planet } })),
    );
    await vscode.window.showTextDocument(uri);
    const result = await vscode.commands.executeCommand<{
      references: Record<string, { reference_status: string; referenced_from: string }>;
    }>('fdref.addEntityReferences', { depth: 1, mode: 'all' });
    assert.equal(result.references[player]?.reference_status, 'resolved');
    assert.equal(result.references[player]?.referenced_from, 'fleet.owner');
    assert.equal(result.references[planet]?.reference_status, 'resolved');
    const beside = vscode.window.activeTextEditor?.document;
    assert.equal(beside?.languageId, 'json');
    assert.ok(beside?.getText().includes('"references"'));
  });

  it('says so when the JSON is not valid', async () => {
    const uri = inWorkspace(`entities/${uniqueId('broken')}.json`);
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('{"owner": '));
    await vscode.window.showTextDocument(uri);
    const mark = await messageMark();
    assert.equal(
      await vscode.commands.executeCommand('fdref.addEntityReferences', { depth: 1, mode: 'all' }),
      undefined,
    );
    const error = (await messagesSince(mark)).find((m) => m.level === 'error');
    assert.match(error?.text ?? '', /is not valid JSON/);
  });

  it('names the API and the reason in the hover when the API cannot be reached', async () => {
    const port = await freePort();
    await setSetting('fdref.entities.apiBaseUrl', `http://127.0.0.1:${port}`);
    try {
      const hovers = await hoversAt('json', '{ "planet": "2-1" }', '2-1');
      const hover = hovers.find((h) => h.includes('could not be loaded'));
      assert.ok(hover, JSON.stringify(hovers));
      assert.ok(hover.includes(`http://127.0.0.1:${port}`));
      assert.match(hover, /refused/);
      assert.match(hover, /Change the API URL\]\(command:workbench\.action\.openSettings/);
    } finally {
      await setSetting('fdref.entities.apiBaseUrl', api.baseUrl);
    }
  });

  it('reports a bad setting and uses its default', async () => {
    const mark = await messageMark();
    await setSetting('fdref.entities.maxParallel', 0);
    const { entities } = await fdref();
    assert.equal(entities.settings.maxParallel, 5);
    const warning = (await messagesSince(mark)).find((m) => m.level === 'warning');
    assert.match(
      warning?.text ?? '',
      /fdref\.entities\.maxParallel must be a whole number from 1 to 50 \(got 0\); using 5/,
    );
    await setSetting('fdref.entities.maxParallel', undefined);
  });
});
