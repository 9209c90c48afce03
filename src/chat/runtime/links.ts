import * as vscode from 'vscode';
import type { Log } from '../../common/userMessages';
import { ENTITY_HOVER_COMMANDS } from '../../entities/entityDetails';

/**
 * Opens a link the user clicked in a chat message. Model output is untrusted, so only web and mail links
 * open (through VS Code, which asks before opening an unknown site), plus the few commands the entity
 * details link to; anything else is logged and ignored.
 */
export async function openLink(href: string, log: Log): Promise<void> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(href, true);
  } catch {
    log.warn(`Chat: ignored a link that is not a valid URI: ${href.slice(0, 200)}`);
    return;
  }
  if (uri.scheme === 'http' || uri.scheme === 'https' || uri.scheme === 'mailto') {
    await vscode.env.openExternal(uri);
    return;
  }
  if (uri.scheme === 'command' && ENTITY_HOVER_COMMANDS.includes(uri.path)) {
    let args: unknown[];
    try {
      const parsed: unknown = uri.query === '' ? [] : JSON.parse(uri.query);
      args = Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      log.warn(`Chat: ignored a command link with arguments that are not JSON: ${href.slice(0, 200)}`);
      return;
    }
    await vscode.commands.executeCommand(uri.path, ...args);
    return;
  }
  log.warn(`Chat: did not open a ${uri.scheme}: link from a message (only http, https and mailto links open).`);
}
