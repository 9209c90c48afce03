/** The webview's only way out: typed messages to the extension, and the view state VS Code keeps for us. */
import type { FromWebview } from '../core/chat/protocol';
import { DRAFT_EAGER_CHARS, MAX_DRAFT_CHARS } from '../core/chat/protocolLimits';

/** What survives the panel being hidden or VS Code restarting (kept small: it is serialized often). */
export interface ViewState {
  chatId?: string | undefined;
  draft?: string | undefined;
  scrollTop?: number | undefined;
  /** Whether the view followed the end of the chat. */
  atBottom?: boolean | undefined;
}

const api = acquireVsCodeApi<ViewState>();

export function post(message: FromWebview): void {
  api.postMessage(message);
}

let state: ViewState = api.getState() ?? {};
let timer: ReturnType<typeof setTimeout> | undefined;

export function viewState(): Readonly<ViewState> {
  return state;
}

/** Merges `patch` into the view state; written at most every 250 ms (scrolling and typing call this a lot). */
export function updateViewState(patch: Partial<ViewState>): void {
  state = { ...state, ...patch };
  timer ??= setTimeout(writeState, 250);
  if (patch.draft !== undefined) keepDraft();
}

/** The chat this page shows (from its `init`); its draft goes to the extension too. */
let shownChat: string | undefined;
/** The draft the extension has now. */
let keptDraft = '';
let draftTimer: ReturnType<typeof setTimeout> | undefined;

/** The page now shows `chatId`, whose draft the extension holds as `draft`. */
export function showingChat(chatId: string, draft: string): void {
  clearTimeout(draftTimer);
  draftTimer = undefined;
  shownChat = chatId;
  keptDraft = draft;
}

/**
 * Hands the draft to the extension, which keeps it for when the chat is shown in another page: on every change while
 * it is short, once typing pauses when it is long, not at all beyond `MAX_DRAFT_CHARS` (the page's state keeps it).
 */
function keepDraft(): void {
  if ((state.draft ?? '').length <= DRAFT_EAGER_CHARS) sendDraft();
  else {
    clearTimeout(draftTimer);
    draftTimer = setTimeout(sendDraft, 300);
  }
}

function sendDraft(): void {
  clearTimeout(draftTimer);
  draftTimer = undefined;
  const draft = state.draft ?? '';
  if (shownChat === undefined || draft === keptDraft || draft.length > MAX_DRAFT_CHARS) return;
  keptDraft = draft;
  post({ type: 'draft', chatId: shownChat, text: draft });
}

function writeState(): void {
  clearTimeout(timer);
  timer = undefined;
  api.setState(state);
}

// The panel may go away before the timers fire: write what is pending first.
window.addEventListener('pagehide', () => {
  writeState();
  if (draftTimer !== undefined) sendDraft();
});
