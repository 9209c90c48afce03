import * as vscode from 'vscode';
import { byteSize } from '../core/quantities';
import { Disposable } from '../common/lifecycle';
import type { SessionRegistry } from '../sessions/sessionRegistry';

/** A burst of changes (a streaming chat) is measured once, this long after it. */
const SETTLE_MS = 1_500;

/**
 * Shows the session store's size as the sessions view's message, a line above the tree ("Session store: 1.2 GB").
 * Not the view's description nor its title: VS Code shows no description where the view's title is merged into
 * its container's ("FD Refs: Sessions", the view being alone in it), and a longer title is cut off by the view's
 * buttons. Measured (`storeUsage`: the
 * file sizes, async) when the view is shown and after changes while it is visible, never during activation.
 */
export class StoreSizeLabel extends Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private measuring = false;
  private again = false;
  /** The last size shown, in bytes, and the message showing it (the tests read them). */
  bytes: number | undefined;
  message: string | undefined;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly view: vscode.TreeView<unknown>,
  ) {
    super();
    this._register(registry.onDidChange(() => this.schedule()));
    this._register(view.onDidChangeVisibility(() => this.schedule(0)));
    this._register({ dispose: () => clearTimeout(this.timer) });
    if (view.visible) this.schedule(0);
  }

  /** Measures now; resolves once the description shows the result. */
  async measure(): Promise<void> {
    if (this.measuring) {
      this.again = true;
      return;
    }
    this.measuring = true;
    try {
      const usage = await this.registry.usage();
      this.bytes = usage.totalBytes;
      // An empty store shows the view's welcome instead: VS Code hides the welcome while a message is set.
      this.message = usage.sessions.length === 0 ? undefined : `Session store: ${byteSize(usage.totalBytes)}`;
      if (!this.isDisposed) this.view.message = this.message ?? ''; // an empty message shows none
    } catch {
      // The store could not be opened: the registry reports that where it is used.
    } finally {
      this.measuring = false;
      if (this.again) {
        this.again = false;
        this.schedule();
      }
    }
  }

  private schedule(delay = SETTLE_MS): void {
    if (this.isDisposed || !this.view.visible) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.measure(), delay);
  }
}
