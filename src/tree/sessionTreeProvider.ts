import * as vscode from 'vscode';
import { descriptorIdBody, descriptorKindOf } from '../core/ids';
import {
  commandDescription,
  commandLabel,
  commandTooltipLines,
  descriptorDescription,
  refDescription,
} from '../core/presentation/describe';
import { lineCount } from '../core/quantities';
import type { SessionReader, StoredDescriptor, StoredSessionMeta } from '../core/store';
import { Disposable } from '../common/lifecycle';
import { descriptorUri } from '../files/fdrefUri';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { utf8Size } from '../sessions/storedText';
import { StoreSizeLabel } from './storeSizeLabel';
import { CONTEXT, type DescriptorNode, type TreeNode } from './treeNodes';

/** The sessions view's items (the view is made at activation); read from the registry when the view is shown. */
export function registerTree(
  context: vscode.ExtensionContext,
  registry: SessionRegistry,
  view: vscode.TreeView<TreeNode>,
): SessionTreeProvider {
  const provider = new SessionTreeProvider(registry);
  provider.storeSize = new StoreSizeLabel(registry, view);
  context.subscriptions.push(provider, provider.storeSize);
  return provider;
}

/** Sessions (their metadata only), each with its refs (latest versions) followed by its `fd:` descriptors. */
export class SessionTreeProvider extends Disposable implements vscode.TreeDataProvider<TreeNode> {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<TreeNode | undefined>());
  readonly onDidChangeTreeData = this.changeEmitter.event;
  /** The store's size shown on the view (set when the view is made). */
  storeSize: StoreSizeLabel | undefined;

  constructor(private readonly registry: SessionRegistry) {
    super();
    this._register(registry.onDidChange(() => this.refresh()));
  }

  refresh(): void {
    this.changeEmitter.fire(undefined);
  }

  async getChildren(node?: TreeNode): Promise<TreeNode[]> {
    if (node === undefined)
      return (await this.registry.list()).map((meta) => ({ kind: 'session', sessionId: meta.id }));
    if (node.kind === 'descriptor') return [];
    const reader = await this.registry.reader(node.sessionId);
    if (!reader) return [];
    const ids = [...reader.refs().map((r) => r.descriptor.id), ...reader.descriptors().map((d) => d.id)];
    return ids.map((descriptorId) => ({ kind: 'descriptor', sessionId: node.sessionId, descriptorId }));
  }

  async getTreeItem(node: TreeNode): Promise<vscode.TreeItem> {
    const meta = await this.registry.meta(node.sessionId);
    if (!meta) return new vscode.TreeItem('(removed)');
    if (node.kind === 'session') return sessionItem(meta);
    const reader = await this.registry.reader(node.sessionId);
    return reader ? descriptorItem(meta, reader, node) : new vscode.TreeItem(`${node.descriptorId} (removed)`);
  }

  getParent(node: TreeNode): TreeNode | undefined {
    return node.kind === 'descriptor' ? { kind: 'session', sessionId: node.sessionId } : undefined;
  }
}

/** A session's icon by where it came from. */
const ORIGIN_ICONS: Record<StoredSessionMeta['origin']['kind'], string> = {
  capture: 'clippy',
  chat: 'comment-discussion',
  mcp: 'plug',
  terminal: 'terminal',
  lmTools: 'tools',
  participant: 'comment-discussion',
  agentShell: 'terminal-bash',
};

function sessionItem(meta: StoredSessionMeta): vscode.TreeItem {
  const item = new vscode.TreeItem(meta.name, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `session:${meta.id}`;
  const created = new Date(meta.createdAt);
  item.description = `${meta.pinned ? 'pinned · ' : ''}${created.toLocaleDateString(undefined, { dateStyle: 'medium' })}`;
  item.tooltip = `${meta.name}\nCreated ${created.toLocaleString()}\nId ${meta.id}${meta.pinned ? '\nPinned: kept whatever the retention settings say' : ''}`;
  item.iconPath = new vscode.ThemeIcon(meta.pinned ? 'pinned' : ORIGIN_ICONS[meta.origin.kind]);
  const base = meta.chat ? CONTEXT.chatSession : CONTEXT.session;
  item.contextValue = meta.pinned ? `${base}${CONTEXT.pinnedSuffix}` : base;
  return item;
}

async function descriptorItem(
  meta: StoredSessionMeta,
  reader: SessionReader,
  node: DescriptorNode,
): Promise<vscode.TreeItem> {
  const descriptor = reader.lookup(node.descriptorId);
  if (!descriptor) return new vscode.TreeItem(`${node.descriptorId} (removed)`);
  const isRef = descriptorKindOf(descriptor.id) === 'ref';
  const versions = isRef ? (reader.refs().find((r) => r.descriptor.id === descriptor.id)?.versions ?? 1) : 1;
  const command = descriptor.command;
  const label = isRef
    ? descriptorIdBody(descriptor.id)
    : command
      ? commandLabel(descriptor.id, command)
      : descriptor.id;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = `descriptor:${meta.id}:${descriptor.id}`;
  item.description = isRef
    ? refDescription(descriptor, versions)
    : command
      ? commandDescription(command, await utf8Size(descriptor.content))
      : descriptorDescription(descriptor, await utf8Size(descriptor.content));
  item.tooltip = tooltip(descriptor);
  item.resourceUri = descriptorUri(meta, descriptor);
  item.iconPath = isRef ? vscode.ThemeIcon.File : new vscode.ThemeIcon(command ? 'terminal' : 'output');
  item.contextValue = isRef ? (versions > 1 ? CONTEXT.refWithVersions : CONTEXT.ref) : CONTEXT.descriptor;
  item.command = { command: 'fdref.openRef', title: 'Open', arguments: [node] };
  return item;
}

function tooltip(descriptor: StoredDescriptor): vscode.MarkdownString {
  const markdown = new vscode.MarkdownString();
  markdown.appendMarkdown(`**${descriptor.id}** · ${lineCount(descriptor.content.totalLines)}\n\n`);
  markdown.appendText(`Created ${new Date(descriptor.createdAt).toLocaleString()}`);
  if (descriptor.command) {
    const lines = commandTooltipLines(descriptor.command, (iso) => new Date(iso).toLocaleString());
    markdown.appendText(`\n\n${lines.join('\n')}`);
  }
  return markdown;
}
