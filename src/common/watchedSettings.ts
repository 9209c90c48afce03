import * as vscode from 'vscode';
import type { SettingsGroup } from '../core/settings/settingsReader';
import { Disposable } from './lifecycle';
import type { UserMessages } from './userMessages';

/**
 * A group of settings as VS Code's configuration holds them, validated by the core: read on first use
 * and again after the section changes, so each problem is shown once per change of the settings.
 */
export class WatchedSettings<S> extends Disposable {
  private cached: S | undefined;

  constructor(
    private readonly group: SettingsGroup<S>,
    private readonly messages: UserMessages,
  ) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(group.section)) this.cached = undefined;
      }),
    );
  }

  /** The settings now; the same object until the section changes. */
  get settings(): S {
    if (this.cached !== undefined) return this.cached;
    const config = vscode.workspace.getConfiguration(this.group.section);
    const { settings, problems } = this.group.validate(
      Object.fromEntries(this.group.keys.map((key) => [key, config.get(key)])),
    );
    for (const problem of problems) void this.messages.warn(`${problem}.`);
    this.cached = settings;
    return settings;
  }
}
