import * as vscode from 'vscode';
import { descriptorIdBody, refDescriptorId } from '../core/ids';
import { matchingSymbols, SYMBOL_RESULTS, SYMBOL_SESSIONS } from '../core/files/symbolQuery';
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

/** Lists refs (`ref:x`, earlier versions `ref:x@1`) and descriptors (`fd:N`) in Go to Symbol in Workspace (Ctrl+T). */
export function registerRefSymbols(context: vscode.ExtensionContext, registry: SessionRegistry): RefSymbolProvider {
  const provider = new RefSymbolProvider(registry);
  context.subscriptions.push(provider, vscode.languages.registerWorkspaceSymbolProvider(provider));
  return provider;
}

/**
 * Answers workspace symbol queries from the sessions' journals, already read for the tree and the `fdref:` files:
 * no content is read. A query looks at the `SYMBOL_SESSIONS` most recently created sessions and returns at most
 * `SYMBOL_RESULTS` symbols, so a keystroke costs the same however large the store grows. That list of sessions and
 * each session's symbols are built once and dropped when they change.
 */
export class RefSymbolProvider extends Disposable implements vscode.WorkspaceSymbolProvider {
  private readonly symbols = new Map<string, Promise<RefSymbol[]>>();
  /** The sessions a query looks in, listed again only when a session comes, goes or is renamed. */
  private recent: Promise<StoredSessionMeta[]> | undefined;

  constructor(private readonly registry: SessionRegistry) {
    super();
    this._register(
      registry.onDidChange((change) => {
        if (change.kind === 'reloaded') this.symbols.clear();
        else if (change.kind !== 'pinned') this.symbols.delete(change.sessionId);
        if (
          change.kind === 'added' ||
          change.kind === 'removed' ||
          change.kind === 'renamed' ||
          change.kind === 'reloaded'
        )
          this.recent = undefined;
      }),
    );
  }

  async provideWorkspaceSymbols(query: string, token: vscode.CancellationToken): Promise<vscode.SymbolInformation[]> {
    const listing = (this.recent ??= this.registry.list().then((all) => all.slice(0, SYMBOL_SESSIONS)));
    const sessions = await listing.catch((error: unknown) => {
      if (this.recent === listing) this.recent = undefined;
      throw error;
    });
    const groups: RefSymbol[][] = [];
    for (const session of sessions) {
      if (token.isCancellationRequested) return [];
      groups.push(await this.symbolsOf(session));
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

  private symbolsOf(session: StoredSessionMeta): Promise<RefSymbol[]> {
    let symbols = this.symbols.get(session.id);
    if (!symbols) {
      const reading: Promise<RefSymbol[]> = this.registry.reader(session.id).then((reader) => {
        if (reader) return readSymbols(session, reader);
        // It could not be read: tried again next time.
        if (this.symbols.get(session.id) === reading) this.symbols.delete(session.id);
        return [];
      });
      symbols = reading;
      this.symbols.set(session.id, symbols);
    }
    return symbols;
  }
}

function readSymbols(session: StoredSessionMeta, reader: SessionReader): RefSymbol[] {
  const symbols: RefSymbol[] = [];
  const add = (descriptor: { id: string; language?: string }, kind: vscode.SymbolKind) =>
    symbols.push({
      name: descriptor.id,
      lowerName: descriptor.id.toLowerCase(),
      kind,
      container: session.name,
      uri: descriptorUri(session, descriptor),
    });
  for (const { descriptor, versions } of reader.refs()) {
    add(descriptor, vscode.SymbolKind.Variable);
    for (let version = versions - 1; version >= 1; version--) {
      const earlier = reader.lookup(refDescriptorId(descriptorIdBody(descriptor.id), version));
      if (earlier) add(earlier, vscode.SymbolKind.Variable);
    }
  }
  for (const descriptor of reader.descriptors()) add(descriptor, vscode.SymbolKind.File);
  return symbols;
}
