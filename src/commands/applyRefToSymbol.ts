import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import type { UserMessages } from '../common/userMessages';
import { shownPath } from '../common/workspacePaths';
import { parseDescriptorId } from '../core/ids';
import { planSymbolReplacement, type UnmatchedSymbol } from '../core/refs/symbolReplacement';
import type { FoundDescriptor, SessionRegistry } from '../sessions/sessionRegistry';
import { targetAndRefSymbols } from '../symbols/documentSymbols';
import type { ScratchDocuments } from '../symbols/scratchDocuments';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import type { Command } from './command';
import { commandArguments } from './commandArguments';
import { pickWorkspaceFile, refFromArgumentOrPick } from './pickers';
import { targetEditor } from './targetEditor';

/** What Apply Ref to Symbol did, for the tests and for other commands. */
export interface ApplyRefToSymbolResult {
  readonly applied: boolean;
  /** The target symbols replaced, `Greeter.hello` for a method. */
  readonly replaced: readonly string[];
  /** The notification shown when something was not replaced. */
  readonly message?: string;
}

const INSERT = 'Insert at Cursor';
const APPEND = 'Append to File';

/**
 * Replaces, in a target document (the active editor, a file named by `path`, or one the user picks), the symbols
 * a ref redefines: both are read by the target language's document symbol provider and matched by the core
 * (`planSymbolReplacement`). The change is one `WorkspaceEdit` that needs confirmation, so VS Code shows its
 * refactor preview first (VS Code leaves such changes unticked: the user ticks them and presses Apply) and one undo
 * takes it back; `{ confirmed: true }` applies the same edit without the preview. When nothing matches it says why
 * and offers Insert at Cursor and Append instead.
 */
export class ApplyRefToSymbolCommand implements Command {
  readonly id = REF_COMMAND_IDS.applyToSymbol;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly writer: WorkspaceWriter,
    private readonly scratch: ScratchDocuments,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<ApplyRefToSymbolResult | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Apply Ref to Symbol', this.messages);
    if (!found) return undefined;
    const document = await this.targetDocument(arg, found.descriptor.id);
    if (!document) return undefined;
    const refText = await found.descriptor.content.text();
    const { target: targetSymbols, ref: refSymbols } = await targetAndRefSymbols(this.scratch, document, refText);
    const plan = planSymbolReplacement(
      { text: refText, symbols: refSymbols },
      {
        text: document.getText(),
        symbols: targetSymbols,
        eol: document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n',
      },
    );
    const shown = shownPath(document.uri);
    if (plan.replacements.length === 0) {
      const message = nothingMatched(
        found,
        shown,
        document.languageId,
        refSymbols.length,
        targetSymbols.length,
        plan.unmatched,
      );
      this.offerAlternatives(message, found, document);
      return { applied: false, replaced: [], message };
    }
    const replaced = plan.replacements.map((r) => [...r.container, r.name].join('.'));
    const confirmed = commandArguments(arg).confirmed === true;
    const edit = new vscode.WorkspaceEdit();
    const label = `Apply ${found.descriptor.id} to ${replaced.join(', ')}`;
    for (const replacement of plan.replacements) {
      const { start, end } = replacement.range;
      edit.replace(
        document.uri,
        new vscode.Range(start.line, start.character, end.line, end.character),
        replacement.text,
        {
          needsConfirmation: !confirmed,
          label,
          description: shown,
        },
      );
    }
    const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
    if (!applied) return { applied: false, replaced: [] };
    if (plan.unmatched.length === 0) return { applied: true, replaced };
    const message = `Replaced ${replaced.join(', ')} in ${shown}; ${unmatchedText(plan.unmatched, shown)}.`;
    void this.messages.info(message);
    return { applied: true, replaced, message };
  }

  /** The `path` of the argument, else the editor the user works in, else a workspace file the user picks. */
  private async targetDocument(arg: unknown, label: string): Promise<vscode.TextDocument | undefined> {
    let path = commandArguments(arg).path;
    if (path === undefined) {
      const editor = targetEditor();
      if (editor) return editor.document;
      path = await pickWorkspaceFile(this.writer, `Apply ${label} to the matching symbol of`, { label, existOk: true });
      if (path === undefined) return undefined;
    }
    const target = await this.writer.check({ filePath: path, existOk: true, label });
    if (!target.exists)
      throw new UserError(`${target.shown} does not exist: Apply Ref to Symbol changes a file that is there.`);
    return vscode.workspace.openTextDocument(target.uri);
  }

  /** The message with buttons that run Insert at Cursor in the target, or Append to it (a file on disk only). */
  private offerAlternatives(message: string, found: FoundDescriptor, document: vscode.TextDocument): void {
    const ref = { sessionId: found.session.id, descriptorId: found.descriptor.id };
    const actions = document.uri.scheme === 'file' ? [INSERT, APPEND] : [INSERT];
    void this.messages.info(message, ...actions).then(async (choice) => {
      if (choice === INSERT) {
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand(REF_COMMAND_IDS.insertAtCursor, ref);
      } else if (choice === APPEND) {
        await vscode.commands.executeCommand(REF_COMMAND_IDS.append, { ...ref, path: document.uri.fsPath });
      }
    });
  }
}

/** Why nothing was replaced, in the user's words. */
function nothingMatched(
  found: FoundDescriptor,
  shown: string,
  languageId: string,
  refSymbolCount: number,
  targetSymbolCount: number,
  unmatched: readonly UnmatchedSymbol[],
): string {
  const ref = found.descriptor.id;
  if (refSymbolCount === 0 && targetSymbolCount === 0)
    return `No symbol named ${refName(ref)} in ${shown}; the ${languageId} language has no symbol provider here (it finds no symbols in ${ref} nor in the file). Insert it at the cursor or append it instead.`;
  if (refSymbolCount === 0)
    return `${ref} defines no symbol the ${languageId} symbol provider finds, so it matches nothing in ${shown}. Insert it at the cursor or append it instead.`;
  const why = unmatchedText(unmatched, shown);
  return `${why.charAt(0).toUpperCase()}${why.slice(1)}. Insert ${ref} at the cursor or append it instead.`;
}

/** The unmatched symbols, grouped by why: "no symbol named a or b in x.ts; parse is there twice (A.parse, B.parse)". */
function unmatchedText(unmatched: readonly UnmatchedSymbol[], shown: string): string {
  const parts: string[] = [];
  const missing = unmatched.filter((u) => u.reason === 'missing').map((u) => u.name);
  if (missing.length > 0) parts.push(`no symbol named ${missing.join(' or ')} in ${shown}`);
  for (const u of unmatched.filter((u) => u.reason === 'ambiguous'))
    parts.push(`${u.name} is in ${shown} more than once (${u.candidates?.join(', ') ?? ''}), so it was left alone`);
  const overlapping = unmatched.filter((u) => u.reason === 'overlapping').map((u) => u.name);
  if (overlapping.length > 0) parts.push(`${overlapping.join(', ')} lies inside another symbol the ref replaces`);
  return parts.join('; ');
}

/** `parse_config` for `ref:parse_config@2`; a descriptor's id as it is. */
function refName(id: string): string {
  const parts = parseDescriptorId(id);
  return parts?.kind === 'ref' ? parts.refId : id;
}
