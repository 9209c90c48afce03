import * as vscode from 'vscode';
import { descriptorIdBody, refDescriptorId } from '../core/ids';
import { matchingSymbols, RecentSessionSymbols, SYMBOL_RESULTS, SYMBOLS_PER_SESSION } from '../core/files/symbolQuery';
import type { SessionReader, StoredSessionMeta } from '../core/store';
import { Disposable } from '../common/lifecycle';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { descriptorUri } from './fdrefUri';

/** A ref version or descriptor as Ctrl+T lists it: its id, its session as container, its `fdref:` file. */
interface RefSymbol {
  readonly name: string;
  readonly lowerName: string;
  readonly kind: vscode.SymbolKind;
  readonly container: string;
  readonly uri: vscode.Uri;
}

/**
 * Answers workspace symbol queries from the sessions' journals, already read for the tree and the `fdref:` files:
 * no content is read. A query looks at the `SYMBOL_SESSIONS` most recently created sessions, at most
 * `SYMBOLS_PER_SESSION` symbols of each, and returns at most `SYMBOL_RESULTS` symbols, so a keystroke costs the same
 * however large the store grows. That list of sessions and each session's symbols are built once and dropped when
 * they change or the session leaves the list (see `RecentSessionSymbols`).
 */
export class RefSymbolProvider extends Disposable implements vscode.WorkspaceSymbolProvider {
  private readonly cache: RecentSessionSymbols<StoredSessionMeta, RefSymbol>;

  constructor(registry: SessionRegistry) {
    super();
    this.cache = new RecentSessionSymbols(
      () => registry.list(),
      async (session) => {
        const reader = await registry.reader(session.id);
        return reader && readSymbols(session, reader);
      },
    );
    this._register(
      registry.onDidChange((change) => {
        if (change.kind === 'reloaded') this.cache.clear();
        else if (change.kind !== 'pinned') this.cache.changed(change.sessionId);
        if (change.kind === 'added' || change.kind === 'removed' || change.kind === 'renamed') this.cache.listChanged();
      }),
    );
  }

  async provideWorkspaceSymbols(query: string, token: vscode.CancellationToken): Promise<vscode.SymbolInformation[]> {
    const sessions = await this.cache.sessions();
    const groups: RefSymbol[][] = [];
    for (const session of sessions) {
      if (token.isCancellationRequested) return [];
      groups.push(await this.cache.symbolsOf(session));
    }
    return matchingSymbols(groups, query, SYMBOL_RESULTS).map(
      (symbol) =>
        new vscode.SymbolInformation(
          symbol.name,
          symbol.kind,
          symbol.container,
          new vscode.Location(symbol.uri, new vscode.Position(0, 0)),
        ),
    );
  }
}

/** The session's symbols, at most `SYMBOLS_PER_SESSION`: its refs (each's earlier versions after it), then its descriptors. */
function readSymbols(session: StoredSessionMeta, reader: SessionReader): RefSymbol[] {
  const symbols: RefSymbol[] = [];
  const add = (descriptor: { id: string; language?: string }, kind: vscode.SymbolKind) =>
    symbols.push({
      name: descriptor.id,
      lowerName: descriptor.id.toLowerCase(),
      kind,
      container: session.name,
      uri: descriptorUri(session, descriptor),
    }) < SYMBOLS_PER_SESSION;
  for (const { descriptor, versions } of reader.refs(SYMBOLS_PER_SESSION)) {
    if (!add(descriptor, vscode.SymbolKind.Variable)) return symbols;
    for (let version = versions - 1; version >= 1; version--) {
      const earlier = reader.lookup(refDescriptorId(descriptorIdBody(descriptor.id), version));
      if (earlier && !add(earlier, vscode.SymbolKind.Variable)) return symbols;
    }
  }
  for (const descriptor of reader.descriptors(SYMBOLS_PER_SESSION - symbols.length))
    if (!add(descriptor, vscode.SymbolKind.File)) return symbols;
  return symbols;
}
