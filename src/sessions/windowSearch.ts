/**
 * The window's search across the store (`search_fd` with `fd: "*"`, Search Kept Output...): one worker thread
 * holding the store's index, started on first use, poked to catch up whenever the store changes (this window's
 * saves and other processes' changes alike), ended with the window.
 */
import { StoreSearch } from '../core/search/storeSearch';
import type { StoreSearchPort } from '../core/tools/storeSearchPort';
import { Disposable } from '../common/lifecycle';
import type * as vscode from 'vscode';

export class WindowSearch extends Disposable {
  private search: StoreSearch | undefined;

  constructor(
    private readonly registry: { readonly storeFolder: string; readonly onDidChange: vscode.Event<unknown> },
  ) {
    super();
    this._register(registry.onDidChange(() => this.search?.poke()));
    this._register({ dispose: () => void this.search?.dispose() });
  }

  /** The store's search (the worker starts, and begins catching up, on the first call). */
  get store(): StoreSearch {
    if (this.search === undefined) {
      this.search = new StoreSearch({ root: this.registry.storeFolder });
      this.search.poke();
    }
    return this.search;
  }

  /** The search as the tools of session `thisSession` use it (undefined: they search every session by default). */
  port(thisSession: string | undefined): StoreSearchPort {
    return {
      ...(thisSession === undefined ? {} : { thisSession }),
      search: (query) => this.store.search(query),
    };
  }
}
