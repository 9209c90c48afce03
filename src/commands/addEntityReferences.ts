import * as vscode from 'vscode';
import { addReferences, ENTITY_TYPES, type EntityType } from '../core';
import { errorMessage, UserError } from '../common/errors';
import type { EntityService } from '../entities/entityService';
import type { Command } from './command';
import { showBesideChat } from '../common/showBesideChat';

/** Choices the command would otherwise ask for (tests and keybindings pass them). */
interface AddReferencesArguments {
  readonly depth?: number;
  readonly mode?: 'all' | 'primary';
  readonly types?: EntityType[];
}

/**
 * Adds a `references` section to the active JSON document (or its selection): every Structs entity the
 * payload points to, fetched from the API, opened as a new JSON document beside it.
 */
export class AddEntityReferencesCommand implements Command {
  readonly id = 'fdref.addEntityReferences';

  constructor(private readonly entities: EntityService) {}

  async execute(arg?: unknown): Promise<unknown> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new UserError('Open a JSON document (or select JSON in one) to add entity references to it.');
    const text = editor.selection.isEmpty ? editor.document.getText() : editor.document.getText(editor.selection);
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch (error) {
      const where = editor.selection.isEmpty ? editor.document.fileName.split(/[\\/]/).pop() : 'the selection';
      throw new UserError(`${where} is not valid JSON: ${errorMessage(error)}`);
    }
    // With an argument (tests, keybindings) nothing is asked: what it leaves out takes its default.
    const given = typeof arg === 'object' && arg !== null ? (arg as AddReferencesArguments) : undefined;
    const defaultDepth = Math.max(1, this.entities.settings.referenceDepth);
    const depth = given ? (given.depth ?? defaultDepth) : await pickDepth(defaultDepth);
    if (depth === undefined) return undefined;
    const mode = given ? (given.mode ?? 'all') : await pickMode();
    if (mode === undefined) return undefined;
    const types = given ? (given.types ?? [...ENTITY_TYPES]) : await pickTypes();
    if (types === undefined) return undefined;
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Fetching Structs entity references',
        cancellable: true,
      },
      (_progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        return addReferences(payload, this.entities.resolver, {
          include_references: mode,
          reference_depth: depth,
          ...(types.length < ENTITY_TYPES.length ? { reference_types: types } : {}),
          signal: controller.signal,
        });
      },
    );
    const document = await vscode.workspace.openTextDocument({
      language: 'json',
      content: `${JSON.stringify(result, null, 2)}\n`,
    });
    await showBesideChat(document, { preview: false });
    return result;
  }
}

async function pickDepth(defaultDepth: number): Promise<number | undefined> {
  const items = [
    { label: '1', description: 'the entities the JSON names', depth: 1 },
    { label: '2', description: 'also the entities those name', depth: 2 },
  ].map((item) => ({ ...item, picked: item.depth === Math.max(1, defaultDepth) }));
  items.sort((a, b) => Number(b.picked) - Number(a.picked));
  return (await vscode.window.showQuickPick(items, { title: 'Add Entity References: depth' }))?.depth;
}

async function pickMode(): Promise<'all' | 'primary' | undefined> {
  const items = [
    { label: 'All fields', description: 'every entity id in the JSON', mode: 'all' as const },
    {
      label: 'Primary fields',
      description: 'owner, guildId, planetId, fleetId, substationId, reactorId, ...',
      mode: 'primary' as const,
    },
  ];
  return (await vscode.window.showQuickPick(items, { title: 'Add Entity References: which fields' }))?.mode;
}

async function pickTypes(): Promise<EntityType[] | undefined> {
  const items = ENTITY_TYPES.map((type) => ({ label: type, picked: true }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'Add Entity References: entity types',
    canPickMany: true,
  });
  if (picked === undefined) return undefined;
  if (picked.length === 0) throw new UserError('Pick at least one entity type.');
  return picked.map((item) => item.label);
}
