import type * as vscode from 'vscode';
import type { FdrefWindow, WindowSurfaces } from '../window/fdrefWindow';
import { windowModule } from './windowLoader';

/**
 * fdref's objects for this window (the session registry, the chats, the commands...), built the first time a
 * surface registered at activation is used: a command run, a view shown, a hover over an id, a tool called. Loading
 * dist/window.js and building them is synchronous, so a provider can answer from them in the same call.
 */
export class LazyWindow {
  private window: FdrefWindow | undefined;
  private readonly loaded: ((window: FdrefWindow) => void)[] = [];
  /** What activation made for the window's objects: set once every surface is registered. */
  surfaces: WindowSurfaces | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  /** Whether the window's objects have been built (nothing to close otherwise). */
  get isLoaded(): boolean {
    return this.window !== undefined;
  }

  /** The window's objects, built now if they are not yet. */
  get(): FdrefWindow {
    if (this.window !== undefined) return this.window;
    if (this.surfaces === undefined) throw new Error('fdref is still activating.');
    const window = windowModule().openWindow(this.context, this.surfaces);
    this.window = window;
    for (const listener of this.loaded.splice(0)) listener(window);
    return window;
  }

  /** Calls `listener` once the window's objects are built (a provider forwarding their events). */
  onLoad(listener: (window: FdrefWindow) => void): void {
    if (this.window === undefined) this.loaded.push(listener);
    else listener(this.window);
  }
}
