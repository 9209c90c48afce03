/** The webview's only way out: typed messages to the extension, and the view state VS Code keeps for us. */
import type { FromWebview } from '../core/chat/protocol';

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
}

function writeState(): void {
  clearTimeout(timer);
  timer = undefined;
  api.setState(state);
}

// The panel may go away before the timer fires: write what is pending first.
window.addEventListener('pagehide', writeState);
