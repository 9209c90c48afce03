import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import { showBesideChat } from '../common/showBesideChat';
import { LiveSearch, type LiveState } from '../core/presentation/liveSearch';
import {
  keptLineItem,
  keptSearchNotice,
  keptSearchTitle,
  SEARCH_DEBOUNCE_MS,
  SEARCH_PICK_RESULTS,
} from '../core/presentation/searchKeptOutput';
import { StoreSearchRefusal } from '../core/search/storeSearch';
import type { SearchHit, SearchPage } from '../core/tools/storeSearchPort';
import { descriptorUri } from '../files/fdrefUri';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { commandArguments, descriptorFromArgument, sessionFromArgument } from './commandArguments';

const TITLE = 'Search Kept Output';

type Item = vscode.QuickPickItem & { readonly hit?: SearchHit };

/**
 * A quick pick searching every kept output (or one session's, from its item in the tree) as the user types, through
 * the store's index; picking a line opens its descriptor's `fdref:` document with that line selected. `{ query }`
 * starts it with that text typed. Resolves to the editor opened, or undefined when the pick is dismissed.
 */
export class SearchKeptOutputCommand implements Command {
  readonly id = 'fdref.searchKeptOutput';

  constructor(private readonly registry: SessionRegistry) {}

  async execute(arg?: unknown): Promise<vscode.TextEditor | undefined> {
    const session = await sessionFromArgument(this.registry, arg);
    const query = commandArguments(arg).query;
    const title = session === undefined ? TITLE : `${TITLE} in "${session.name}"`;
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = title;
    pick.placeholder =
      session === undefined
        ? 'Type words to find in every kept output (plain text)'
        : 'Type words to find in this session’s kept output (plain text)';
    pick.matchOnDescription = false;
    pick.matchOnDetail = false;

    const show = (state: LiveState<SearchPage>): void => {
      pick.busy = state.kind === 'busy';
      if (state.kind === 'busy') return; // the previous results stay until the new ones come
      if (state.kind === 'idle') {
        pick.title = title;
        pick.items = [];
        return;
      }
      const page =
        state.kind === 'result'
          ? state.result
          : { refusal: state.error instanceof StoreSearchRefusal ? state.error.message : errorMessage(state.error) };
      pick.title = 'refusal' in page ? title : keptSearchTitle(title, page);
      const notice = keptSearchNotice(page);
      // Every item is shown whatever the typed text: the search has chosen them, the pick must not filter them again.
      // VS Code still sorts a pick's items by where the typed text falls in their labels (`sortByLabel`, which would
      // keep the search's order, is a proposed API): the best matches are the ones shown, not always in rank order.
      pick.items =
        notice !== undefined
          ? [{ label: notice, alwaysShow: true }]
          : ('refusal' in page ? [] : page.hits).map((hit) => ({ ...keptLineItem(hit), alwaysShow: true, hit }));
    };
    const live = new LiveSearch<SearchPage>(
      (text) =>
        this.registry.search.store.search({
          pattern: text,
          caseSensitive: false,
          offset: 0,
          limit: SEARCH_PICK_RESULTS,
          context: 0,
          ...(session === undefined ? {} : { sessions: [session.id] }),
        }),
      show,
      SEARCH_DEBOUNCE_MS,
    );

    try {
      return await new Promise<vscode.TextEditor | undefined>((resolve, reject) => {
        let accepted = false;
        pick.onDidChangeValue((text) => live.type(text));
        pick.onDidHide(() => {
          if (!accepted) resolve(undefined);
        });
        pick.onDidAccept(() => {
          const hit = pick.selectedItems[0]?.hit ?? pick.activeItems[0]?.hit;
          if (hit === undefined) return; // a notice: nothing to open
          accepted = true;
          pick.hide();
          this.open(hit).then(resolve, reject);
        });
        pick.show();
        if (query !== undefined && query !== '') {
          pick.value = query;
          live.type(query);
        }
      });
    } finally {
      live.dispose();
      pick.dispose();
    }
  }

  /** Opens the hit's descriptor with its line selected and in view. */
  private async open(hit: SearchHit): Promise<vscode.TextEditor> {
    const found = await descriptorFromArgument(this.registry, { sessionId: hit.session, descriptorId: hit.handle });
    if (found === undefined) throw new Error(`${hit.handle} was not found.`);
    const document = await vscode.workspace.openTextDocument(descriptorUri(found.session, found.descriptor));
    const line = Math.min(hit.line, document.lineCount) - 1;
    const selection = document.lineAt(line).range;
    const editor = await showBesideChat(document, { preview: true, selection });
    editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return editor;
  }
}
