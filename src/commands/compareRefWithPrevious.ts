import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { descriptorUri } from '../files/fdrefUri';
import type { Command, CommandServices } from './command';
import { refFromArgumentOrPick } from './pickers';

/** Shows a ref's version beside the one before it (`ref:x@n-1` against `ref:x`). */
export class CompareRefWithPreviousCommand implements Command {
  readonly id = 'fdref.compareRefWithPrevious';

  constructor(private readonly services: CommandServices) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const found = await refFromArgumentOrPick(this.services.registry, arg, 'Compare Ref with Previous Version');
    if (!found) return undefined;
    const { entry, descriptor } = found;
    const match = /^ref:([^@]+)(?:@(\d+))?$/.exec(descriptor.id);
    if (!match) throw new UserError(`${descriptor.id} is not a ref, so it has no versions.`);
    const refId = match[1] as string;
    const version = match[2] !== undefined ? Number(match[2]) : (entry.session.refs().find((r) => r.descriptor.id === `ref:${refId}`)?.versions ?? 1);
    const previous = entry.session.getDescriptor(`ref:${refId}@${version - 1}`);
    if (version < 2 || !previous) throw new UserError(`${descriptor.id} has no earlier version to compare with.`);
    const title = `ref:${refId}: v${version - 1} ↔ v${version}`;
    await vscode.commands.executeCommand('vscode.diff', descriptorUri(entry.metadata, previous), descriptorUri(entry.metadata, descriptor), title);
    return title;
  }
}
