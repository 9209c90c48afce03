import * as vscode from 'vscode';
import { EntityResolver } from '../core';
import { ENTITY_SETTINGS, type EntitySettings } from '../core/settings/entitySettings';
import { Disposable } from '../common/lifecycle';
import type { UserMessages } from '../common/userMessages';
import { WatchedSettings } from '../common/watchedSettings';

/**
 * The one Structs API resolver the extension shares (its cache and concurrency limit are global), rebuilt
 * with fresh settings whenever `fdref.entities.*` changes. Bad settings are reported and their defaults used.
 */
export class EntityService extends Disposable {
  private readonly watched: WatchedSettings<EntitySettings>;
  private current: { settings: EntitySettings; resolver: EntityResolver } | undefined;

  constructor(messages: UserMessages) {
    super();
    this.watched = this._register(new WatchedSettings(ENTITY_SETTINGS, messages));
  }

  get settings(): EntitySettings {
    return this.state().settings;
  }

  get resolver(): EntityResolver {
    return this.state().resolver;
  }

  /** Built on first use, so activation reads no settings and builds nothing. */
  private state(): { settings: EntitySettings; resolver: EntityResolver } {
    const settings = this.watched.settings;
    if (this.current?.settings === settings) return this.current;
    const resolver = new EntityResolver({
      baseUrl: settings.apiBaseUrl,
      maxParallel: settings.maxParallel,
      timeoutMs: settings.timeoutMs,
      cacheTtlMs: settings.cacheTtlSeconds * 1000,
    });
    this.current = { settings, resolver };
    return this.current;
  }
}

/** An AbortSignal that fires when `token` is cancelled (the hover's token aborts its requests). */
export function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
