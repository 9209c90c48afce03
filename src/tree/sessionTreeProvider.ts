import * as vscode from 'vscode';
import type { Descriptor } from '../core';
import { descriptorIdBody, descriptorKindOf } from '../core/ids';
import { descriptorDescription, refDescription } from '../core/presentation/describe';
import { lineCount } from '../core/quantities';
import { Disposable } from '../common/lifecycle';
import { descriptorUri } from '../files/fdrefUri';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { CONTEXT, type DescriptorNode, type TreeNode } from './treeNodes';

export const SESSIONS_VIEW = 'fdref.sessions';

/** The sessions view; its items are read from the registry when the view is first shown. */
export function registerTree(context: vscode.ExtensionContext, registry: SessionRegistry): SessionTreeProvider {
  const provider = new SessionTreeProvider(registry);
  context.subscriptions.push(
    provider,
    vscode.window.createTreeView(SESSIONS_VIEW, { treeDataProvider: provider, showCollapseAll: true }),
  );
  return provider;
}

/** Sessions, each with its refs (latest versions) followed by its `fd:` descriptors. */
export class SessionTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;

  constructor(private readonly registry: SessionRegistry) {
    super();
    this._register(registry.onDidChange(() => this.refresh()));
  }

  refresh(): void {
    this.changeEmitter.fire(undefined);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node === undefined)
      return (await this.registry.list()).map((e) => ({ kind: 'session', sessionId: e.metadata.id }));
    if (node.kind === 'descriptor') return [];
    const entry = await this.registry.get(node.sessionId);
    if (!entry) return [];
    const ids = [...entry.session.refs().map((r) => r.descriptor.id), ...entry.session.descriptors().map((d) => d.id)];
    return ids.map((descriptorId) => ({ kind: 'descriptor', sessionId: node.sessionId, descriptorId }));
  }

  async getTreeItem(node: TreeNode): Promise<vscode.TreeItem> {
    const entry = await this.registry.get(node.sessionId);
    if (!entry) return new vscode.TreeItem('(removed)');
    return node.kind === 'session' ? sessionItem(entry) : descriptorItem(entry, node);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.kind === 'descriptor' ? { kind: 'session', sessionId: node.sessionId } : undefined;
  }
}

function sessionItem(entry: SessionEntry): vscode.TreeItem {
  const { metadata, session } = entry;
  const item = new vscode.TreeItem(metadata.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `session:${metadata.id}`;
  const refs = session.refs().length;
  const fds = session.descriptors().length;
  item.description = `${refs} ${refs === 1 ? 'ref' : 'refs'}${fds > 0 ? ` · ${fds} fd` : ''}`;
  item.tooltip = `${metadata.name}\nCreated ${new Date(metadata.createdAt).toLocaleString()}\nId ${metadata.id}`;
  item.iconPath = new vscode.ThemeIcon(metadata.origin.kind === 'chat' ? 'comment-discussion' : 'clippy');
  item.contextValue = entry.chat ? CONTEXT.chatSession : CONTEXT.session;
  return item;
}

function descriptorItem(entry: SessionEntry, node: DescriptorNode): vscode.TreeItem {
  const descriptor = entry.session.getDescriptor(node.descriptorId);
  if (!descriptor) return new vscode.TreeItem(`${node.descriptorId} (removed)`);
  const isRef = descriptorKindOf(descriptor.id) === 'ref';
  const versions = isRef ? (entry.session.refs().find((r) => r.descriptor.id === descriptor.id)?.versions ?? 1) : 1;
  const item = new vscode.TreeItem(
    isRef ? descriptorIdBody(descriptor.id) : descriptor.id,
    vscode.TreeItemCollapsibleState.None,
  );
  item.id = `descriptor:${entry.metadata.id}:${descriptor.id}`;
  item.description = isRef ? refDescription(descriptor, versions) : descriptorDescription(descriptor);
  item.tooltip = tooltip(descriptor);
  item.resourceUri = descriptorUri(entry.metadata, descriptor);
  item.iconPath = isRef ? vscode.ThemeIcon.File : new vscode.ThemeIcon('output');
  item.contextValue = isRef ? (versions > 1 ? CONTEXT.refWithVersions : CONTEXT.ref) : CONTEXT.descriptor;
  item.command = { command: 'fdref.openRef', title: 'Open', arguments: [node] };
  return item;
}

function tooltip(descriptor: Descriptor): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  markdown.appendMarkdown(`**${descriptor.id}** · ${lineCount(descriptor.content.totalLines)}\n\n`);
  markdown.appendText(`Created ${new Date(descriptor.createdAt).toLocaleString()}`);
  return markdown;
}
