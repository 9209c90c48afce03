import * as vscode from 'vscode';
import { wrapAsClassMembers, type SymbolNode } from '../core/refs/symbolReplacement';
import type { ScratchDocuments } from './scratchDocuments';

/** How long a language's own extension may take to register its symbol provider after it starts (a language server). */
const PROVIDER_START_MS = 5000;
const RETRY_MS = 250;

/**
 * The symbols of a target document and of a ref's text read in the target's language. When both have none but an
 * extension that starts on the language is there (JSON's and TypeScript's language servers register their providers
 * only once started), it is started and both are asked again for up to five seconds; a language no extension serves
 * (Python without its extension) answers at once.
 */
export async function targetAndRefSymbols(
  scratch: ScratchDocuments,
  document: vscode.TextDocument,
  refText: string,
): Promise<{ target: SymbolNode[]; ref: SymbolNode[] }> {
  const read = async () => ({
    target: await documentSymbols(document.uri),
    ref: await textSymbols(scratch, refText, document.languageId),
  });
  let found = await read();
  if (found.target.length > 0 || found.ref.length > 0 || !(await startLanguageExtensions(document.languageId)))
    return found;
  const deadline = Date.now() + PROVIDER_START_MS;
  while (found.target.length === 0 && found.ref.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    found = await read();
  }
  return found;
}

/** Whether an extension with code starts on `languageId`; those not started yet are started. */
async function startLanguageExtensions(languageId: string): Promise<boolean> {
  const starting = vscode.extensions.all.filter((extension) => {
    const manifest = extension.packageJSON as { main?: string; browser?: string; activationEvents?: string[] };
    return (
      (manifest.main ?? manifest.browser) !== undefined &&
      (manifest.activationEvents ?? []).includes(`onLanguage:${languageId}`)
    );
  });
  await Promise.all(
    starting.filter((e) => !e.isActive).map((e) => Promise.resolve(e.activate()).then(undefined, () => undefined)),
  );
  return starting.length > 0;
}

/** The symbols of a document as its language's symbol providers give them (none when the language has none). */
export async function documentSymbols(uri: vscode.Uri): Promise<SymbolNode[]> {
  const found = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
    'vscode.executeDocumentSymbolProvider',
    uri,
  );
  return (found ?? []).map((symbol) =>
    'children' in symbol ? fromDocumentSymbol(symbol) : fromSymbolInformation(symbol),
  );
}

/**
 * The symbols `text` defines when read as `languageId`. A text with none is read again as the members of a class
 * where the language needs one around a member (`wrapAsClassMembers`), so a method on its own is found.
 */
export async function textSymbols(scratch: ScratchDocuments, text: string, languageId: string): Promise<SymbolNode[]> {
  const direct = await scratch.read(text, languageId, (document) => documentSymbols(document.uri));
  if (direct.length > 0) return direct;
  const wrapped = wrapAsClassMembers(languageId, text);
  if (!wrapped) return direct;
  return wrapped.unwrap(await scratch.read(wrapped.text, languageId, (document) => documentSymbols(document.uri)));
}

function fromDocumentSymbol(symbol: vscode.DocumentSymbol): SymbolNode {
  return {
    name: symbol.name,
    kind: vscode.SymbolKind[symbol.kind],
    range: fromRange(symbol.range),
    children: symbol.children.map(fromDocumentSymbol),
  };
}

/** A flat symbol (providers that give no tree); its container is not rebuilt, so it is matched as top-level. */
function fromSymbolInformation(symbol: vscode.SymbolInformation): SymbolNode {
  return {
    name: symbol.name,
    kind: vscode.SymbolKind[symbol.kind],
    range: fromRange(symbol.location.range),
    children: [],
  };
}

function fromRange(range: vscode.Range): SymbolNode['range'] {
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}
