/** Opening, from a chat, the file one of its tool calls wrote. */
import * as vscode from 'vscode';
import { UserError } from '../../common/errors';
import { showBesideChat } from '../../common/showBesideChat';
import { shownPath } from '../../common/workspacePaths';
import { toolCallHeadline } from '../../core/chat/toolSummary';
import { locateInWorkspace } from '../../core/files/workspacePath';
import type { ChatMessageRecord, ToolCallRecord } from '../../core/session/transcript';
import type { WorkspaceWriter } from '../../workspace/workspaceWriter';

/**
 * Opens the file the tool call `callId` of a chat wrote, where `showBesideChat` says (never over the chat). The
 * webview names the call; the path is the one in the chat's own record of it, and the file is opened only when,
 * links followed, it lies inside a workspace folder (one opened through a link included).
 */
export async function openWrittenFile(
  messages: readonly ChatMessageRecord[],
  writer: Pick<WorkspaceWriter, 'roots' | 'fileSystem'>,
  callId: string,
): Promise<void> {
  const call = findToolCall(messages, callId);
  const file = call && toolCallHeadline(call)?.find((part) => 'file' in part);
  if (file === undefined || !('file' in file) || file.file === '')
    throw new UserError('The tool call wrote no file this chat knows of, so there is nothing to open.');
  let located: { path: string } | undefined;
  try {
    located = await locateInWorkspace(file.file, writer.roots(), writer.fileSystem);
  } catch {
    throw new UserError(`${shownPath(file.file)} no longer exists.`);
  }
  if (located === undefined)
    throw new UserError(`${shownPath(file.file)} is not inside a workspace folder, so the chat does not open it.`);
  await showBesideChat(vscode.Uri.file(located.path), { preview: true });
}

/** The record of the tool call `callId` in a chat's messages (a walk over the chat, once per click). */
function findToolCall(messages: readonly ChatMessageRecord[], callId: string): ToolCallRecord | undefined {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const round of message.rounds) {
      const call = round.toolCalls.find((c) => c.callId === callId);
      if (call) return call;
    }
  }
  return undefined;
}
