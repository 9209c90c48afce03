/**
 * `FD Refs: Choose Chat Tools...` (also the tools button in the chat header): a multi-select list of the tools VS
 * Code has (`vscode.lm.tools`, MCP servers' tools included) with their descriptions, checked as
 * `fdref.chat.tools` has them; accepting writes the setting where it is set (the workspace's, else the user's).
 */
import * as vscode from 'vscode';
import { OFFERABLE_TOOL_NAME } from '../chat/otherTools';
import type { UserMessages } from '../common/userMessages';
import { CHAT_OWN_TOOL_NAMES } from '../core/chat/toolNames';
import type { Command } from './command';

const SECTION = 'fdref.chat';
const KEY = 'tools';

interface ToolItem extends vscode.QuickPickItem {
  readonly name: string;
}

export class ChooseChatToolsCommand implements Command {
  readonly id = 'fdref.chat.chooseTools';

  constructor(private readonly messages: UserMessages) {}

  async execute(): Promise<void> {
    const configuration = vscode.workspace.getConfiguration(SECTION);
    const current = configuration.get<unknown>(KEY);
    const chosen = new Set(Array.isArray(current) ? current.filter((n): n is string => typeof n === 'string') : []);
    const clashing = vscode.lm.tools.filter((tool) => CHAT_OWN_TOOL_NAMES.has(tool.name)).map((tool) => tool.name);
    const items: ToolItem[] = vscode.lm.tools
      .filter((tool) => !CHAT_OWN_TOOL_NAMES.has(tool.name))
      .map((tool) => ({
        name: tool.name,
        label: tool.name,
        detail: OFFERABLE_TOOL_NAME.test(tool.name)
          ? tool.description
          : `Cannot be offered: model APIs take only names of letters, digits, _ and - (at most 64). ${tool.description}`,
        ...(tool.tags.length > 0 ? { description: tool.tags.join(', ') } : {}),
        picked: chosen.has(tool.name),
      }));
    // A chosen tool VS Code no longer lists stays chosen (it may come back) and is shown as missing.
    const listed = new Set(items.map((item) => item.name));
    const gone = [...chosen].filter((name) => !listed.has(name));
    for (const name of gone)
      items.push({
        name,
        label: name,
        detail: 'Not available now: its extension or MCP server is not running.',
        picked: true,
      });
    items.sort((a, b) => a.name.localeCompare(b.name));
    if (items.length === 0) {
      void this.messages.info('VS Code lists no language model tools of other extensions to offer in the chat.');
      return;
    }
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      matchOnDetail: true,
      title: 'Tools the FD Refs chat offers the model',
      placeHolder:
        'Checked tools are offered to the model; the chat asks before each call unless fdref.chat.autoApproveTools lists it.' +
        (clashing.length > 0 ? ` Not listed (named like FD Refs' own tools): ${clashing.join(', ')}.` : ''),
    });
    if (picked === undefined) return;
    const names = picked.map((item) => item.name);
    const inspected = configuration.inspect<unknown>(KEY);
    const target =
      inspected?.workspaceFolderValue !== undefined
        ? vscode.ConfigurationTarget.WorkspaceFolder
        : inspected?.workspaceValue !== undefined
          ? vscode.ConfigurationTarget.Workspace
          : vscode.ConfigurationTarget.Global;
    await configuration.update(KEY, names, target);
  }
}
