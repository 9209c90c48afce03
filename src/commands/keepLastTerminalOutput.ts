import * as vscode from 'vscode';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import type { UserMessages } from '../common/userMessages';
import { quoteInput } from '../core/quoteInput';
import type { KeptOutput, TerminalCapture } from '../terminal/terminalCapture';
import type { DescriptorNode } from '../tree/treeNodes';
import type { Command } from './command';

export const KEEP_LAST_TERMINAL_OUTPUT = 'fdref.keepLastTerminalOutput';

/** Keeps the active terminal's last command's output as a descriptor, also while the setting is off. */
export class KeepLastTerminalOutputCommand implements Command {
  readonly id = KEEP_LAST_TERMINAL_OUTPUT;

  constructor(
    private readonly capture: TerminalCapture,
    private readonly messages: UserMessages,
  ) {}

  /** Resolves to what was kept (tests check it); the message offers to open it. */
  async execute(): Promise<KeptOutput> {
    const kept = await this.capture.keepLast();
    const what = kept.startDroppedChars
      ? `the end of the output of ${quoteInput(kept.commandLine)} (its last ${count(kept.outputChars - kept.startDroppedChars)} of ${count(kept.outputChars)} characters: the start was dropped, only the end is held while fdref.terminal.keepOutput is off)`
      : `the output of ${quoteInput(kept.commandLine)}`;
    const text = kept.alreadyKept
      ? `FD Refs kept ${what} already, as ${kept.descriptorId} in "${kept.sessionName}".`
      : `FD Refs kept ${what} as ${kept.descriptorId} in "${kept.sessionName}".`;
    void this.messages.info(text, 'Open').then((choice) => {
      if (choice !== 'Open') return;
      const node: DescriptorNode = { kind: 'descriptor', sessionId: kept.sessionId, descriptorId: kept.descriptorId };
      void vscode.commands.executeCommand(REF_COMMAND_IDS.open, node);
    });
    return kept;
  }
}

/** `2,097,152`. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}
