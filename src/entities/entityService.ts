import * as vscode from 'vscode';
import { EntityResolver } from '../core';
import { validateEntitySettings, type EntitySettings, type RawEntitySettings } from '../core/settings/entitySettings';
import { Disposable } from '../common/lifecycle';
import type { UserMessages } from '../common/userMessages';

const SECTION = 'fdref.entities';

/**
 * The one Structs API resolver the extension shares (its cache and concurrency limit are global), rebuilt
 * with fresh settings whenever `fdref.entities.*` changes. Bad settings are reported and their defaults used.
 */
export class EntityService extends Disposable {
  private current: { settings: EntitySettings; resolver: EntityResolver } | undefined;

  constructor(private readonly messages: UserMessages) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SECTION)) return;
        this.current = undefined;
      }),
    );
  }

  get settings(): EntitySettings {
    return this.state().settings;
  }

  get resolver(): EntityResolver {
    return this.state().resolver;
  }

  /** Built on first use, so activation reads no settings and builds nothing. */
  private state(): { settings: EntitySettings; resolver: EntityResolver } {
    if (this.current) return this.current;
    const config = vscode.workspace.getConfiguration(SECTION);
    const raw: RawEntitySettings = {
      apiBaseUrl: config.get('apiBaseUrl'),
      'hover.enabled': config.get('hover.enabled'),
      maxParallel: config.get('maxParallel'),
      timeoutMs: config.get('timeoutMs'),
      cacheTtlSeconds: config.get('cacheTtlSeconds'),
      referenceDepth: config.get('referenceDepth'),
    };
    const { settings, problems } = validateEntitySettings(raw);
    for (const problem of problems) void this.messages.warn(`FD Refs: ${problem}.`);
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
