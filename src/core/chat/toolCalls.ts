/**
 * The tool calls of a round, run in order: the descriptor tools in the session, `fd_to_file` only after the user
 * allowed the write (or the settings do), any other tool through the host, its long output kept as a descriptor.
 * Every failure goes back to the model as `<fd_error>`; only a stop ends the round early.
 */
import { errorMessage } from '../errors';
import { quoteInput } from '../quoteInput';
import type { Session } from '../session/session';
import { ToolError } from '../toolError';
import { DESCRIPTOR_TOOL_NAMES, toolFailure, type ToolOutcome } from '../tools';
import type { ConversationHost, ConversationListener } from './conversationHost';
import { ModelError, type ModelToolCall } from './modelClient';
import type {
  AssistantMessageRecord,
  RoundRecord,
  ToolCallRecord,
  WriteConfirmationRecord,
} from '../session/transcript';
import { toolCallView } from './views';

/** How a call ended, as its record keeps it. */
interface Settled {
  readonly status: 'done' | 'error' | 'denied';
  readonly result: string;
  readonly descriptor?: string;
}

/** Where a call is shown: its answer, round and record. */
interface CallPlace {
  readonly messageId: string;
  readonly round: number;
  readonly entry: ToolCallRecord;
}

export class ToolCalls {
  constructor(
    private readonly session: Session,
    private readonly host: ConversationHost,
    private readonly listener: ConversationListener,
  ) {}

  /** Runs `calls`, the tool calls of round `round` of `message`, recording and showing each as it goes. */
  async run(
    message: AssistantMessageRecord,
    round: number,
    calls: readonly ModelToolCall[],
    signal: AbortSignal,
  ): Promise<void> {
    const record = message.rounds[round] as RoundRecord;
    for (const [i, call] of calls.entries()) {
      const entry = record.toolCalls[i] as ToolCallRecord;
      const place: CallPlace = { messageId: message.id, round, entry };
      this.show(place);
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      const before = this.session.descriptors().length;
      const settled = await this.runOne(call, place, signal);
      entry.status = settled.status;
      entry.result = settled.result;
      if (settled.descriptor !== undefined) entry.descriptor = settled.descriptor;
      if (this.session.descriptors().length !== before) this.listener.descriptorsAdded();
      this.show(place);
    }
  }

  private async runOne(call: ModelToolCall, place: CallPlace, signal: AbortSignal): Promise<Settled> {
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return failed(
        new ToolError(
          'invalid_argument',
          `The arguments of ${quoteInput(call.name)} are not valid JSON: ${quoteInput(call.arguments)}`,
        ),
      );
    }
    if (call.name === 'fd_to_file') return this.write(args, place, signal);
    if (DESCRIPTOR_TOOL_NAMES.has(call.name)) return settled(await this.session.runTool(call.name, args));
    const extra = this.host.extraTools.find((t) => t.definition.name === call.name);
    if (!extra) {
      const names = [...DESCRIPTOR_TOOL_NAMES, ...this.host.extraTools.map((t) => t.definition.name)].join(', ');
      return failed(
        new ToolError('invalid_argument', `There is no tool ${quoteInput(call.name)}. The tools are ${names}.`),
      );
    }
    let output: string;
    try {
      output = await extra.run(args, signal);
    } catch (error) {
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      return failed(new ToolError('invalid_argument', `${call.name} failed: ${errorMessage(error)}`));
    }
    const wrapped = this.session.wrapToolOutputAsDescriptor(call.name, output, this.host.limits().maxToolOutputChars);
    return {
      status: 'done',
      result: wrapped.text,
      ...(wrapped.descriptor ? { descriptor: wrapped.descriptor.id } : {}),
    };
  }

  /** `fd_to_file`: checked, shown to the user, written only when allowed. */
  private async write(args: unknown, place: CallPlace, signal: AbortSignal): Promise<Settled> {
    const workspace = this.host.workspace();
    if (!workspace.trusted) {
      return failed(
        new ToolError(
          'permission_denied',
          'This workspace is not trusted (Restricted Mode), so files cannot be written. Show the content in your answer instead.',
        ),
      );
    }
    const environment = { workspaceRoots: workspace.roots, fileSystem: workspace.fileSystem };
    let confirmation: WriteConfirmationRecord;
    try {
      const preview = await this.session.previewWrite(args, environment);
      confirmation = {
        source: preview.source,
        path: this.host.displayPath(preview.target),
        mode: preview.mode,
        ...(preview.line === undefined ? {} : { line: preview.line }),
        chars: preview.chars,
        bytes: preview.bytes,
        replacesFile: preview.mode === 'write' && preview.fileExists,
        fileExists: preview.fileExists,
      };
    } catch (error) {
      if (error instanceof ToolError) return failed(error);
      throw error;
    }
    const entry = place.entry;
    entry.confirmation = confirmation;
    if (!this.host.autoApproveWrites()) {
      entry.status = 'awaitingConfirmation';
      this.show(place);
      this.listener.changed();
      const allowed = await this.host.confirmWrite(entry.callId, confirmation, signal);
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      if (!allowed) {
        const denied = new ToolError(
          'permission_denied',
          `The user denied writing ${confirmation.source} to ${confirmation.path}. Do not try this write again unless the user asks for it; ` +
            'tell the user where the content is (it stays available as ' +
            confirmation.source +
            ').',
          confirmation.source,
        );
        return { status: 'denied', result: denied.toXml() };
      }
      entry.status = 'running';
      this.show(place);
    }
    return settled(await this.session.runTool('fd_to_file', args, environment));
  }

  private show(place: CallPlace): void {
    this.listener.post({
      type: 'toolCall',
      messageId: place.messageId,
      round: place.round,
      call: toolCallView(place.entry),
    });
  }
}

function failed(error: ToolError): Settled {
  return settled(toolFailure(error));
}

function settled(outcome: ToolOutcome): Settled {
  return { status: outcome.ok ? 'done' : 'error', result: outcome.text };
}
