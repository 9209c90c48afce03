import * as vscode from 'vscode';
import { wrapAsClassMembers, type SymbolNode } from '../core/refs/symbolReplacement';
import type { ScratchDocuments } from './scratchDocuments';

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
