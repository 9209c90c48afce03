/**
 * The tool calls of a round, run in order: the descriptor tools in the session, `fd_to_file` and `run_command` only
 * after the user allowed them (or the settings do), any other tool through the host (asking first when the tool
 * says so), its long output kept as a descriptor. Every failure goes back to the model as `<fd_error>`; only a
 * stop ends the round early.
 */
import { errorMessage } from '../errors';
import { quoteInput } from '../quoteInput';
import type { Session } from '../session/session';
import { ToolError, unexpectedToolError } from '../toolError';
import { DESCRIPTOR_TOOL_NAMES, toolFailure, type ToolOutcome } from '../tools';
import { untrustedWriteError } from '../tools/fdToFile';
import { READ_RESULT_CHARS } from '../tools/toolContext';
import type { ConversationHost, ConversationListener } from './conversationHost';
import { ModelError, type ModelToolCall } from './modelClient';
import type {
  AssistantMessageRecord,
  ConfirmationRecord,
  RoundRecord,
  ToolCallRecord,
  WriteConfirmationRecord,
} from '../session/transcript';
import {
  commandFolder,
  DEFAULT_TIMEOUT_S,
  parseRunCommandInput,
  RUN_COMMAND_TOOL,
  runCommandTool,
  type CommandOutputTarget,
  type KeptOutput,
} from '../tools/runCommand';
import { toolCallView } from './views';

/** How a call ended, as its record keeps it. */
interface Settled {
  readonly status: 'done' | 'error' | 'denied';
  readonly result: string;
  readonly descriptor?: string;
  readonly summary?: string;
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
      let settled: Settled;
      try {
        settled = await this.runOne(call, place, signal);
      } catch (error) {
        // Stopped while asking or running: the call shows it, not a spinner that never ends.
        if (signal.aborted && (entry.status === 'running' || entry.status === 'awaitingConfirmation')) {
          if (entry.status === 'awaitingConfirmation') entry.unanswered = true;
          entry.status = 'error';
          entry.result = new ToolError(
            'permission_denied',
            'The user stopped the answer before this call finished.',
          ).toXml();
          this.show(place);
        }
        throw error;
      }
      entry.status = settled.status;
      entry.result = settled.result;
      if (settled.descriptor !== undefined) entry.descriptor = settled.descriptor;
      if (settled.summary !== undefined) entry.summary = settled.summary;
      if (this.session.descriptors().length !== before) this.listener.descriptorsAdded();
      this.show(place);
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
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
    if (call.name === RUN_COMMAND_TOOL) return this.command(args, place, signal);
    if (DESCRIPTOR_TOOL_NAMES.has(call.name)) {
      const { roots, fileSystem } = this.host.workspace();
      const resultChars = Math.max(READ_RESULT_CHARS, this.host.limits().maxToolOutputChars);
      const environment = { workspaceRoots: roots, fileSystem, resultChars };
      return settled(await this.session.runTool(call.name, args, environment));
    }
    const extras = this.host.extraTools();
    const extra = extras.find((t) => t.definition.name === call.name);
    if (!extra) {
      const why = this.host.missingTool?.(call.name);
      if (why !== undefined) return failed(new ToolError('not_found', why));
      const names = [
        ...DESCRIPTOR_TOOL_NAMES,
        ...(this.host.workspace().trusted ? [RUN_COMMAND_TOOL] : []),
        ...extras.map((t) => t.definition.name),
      ].join(', ');
      return failed(
        new ToolError('invalid_argument', `There is no tool ${quoteInput(call.name)}. The tools are ${names}.`),
      );
    }
    const confirmation = extra.confirmation?.(args);
    if (confirmation !== undefined && !(await this.ask(place, confirmation, false, signal))) {
      return denied(
        `The user denied running the tool ${call.name}. Do not call it again unless the user asks for it; ` +
          'continue without its result or ask the user.',
      );
    }
    let output: string;
    try {
      output = await extra.run(args, signal);
    } catch (error) {
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      if (error instanceof ToolError) return failed(error);
      return failed(new ToolError('invalid_argument', `${call.name} failed: ${errorMessage(error)}`));
    }
    const wrapped = this.session.wrapToolOutputAsDescriptor(call.name, output, this.host.limits().maxToolOutputChars);
    return {
      status: 'done',
      result: wrapped.text,
      ...(wrapped.descriptor ? { descriptor: wrapped.descriptor.id } : {}),
    };
  }

  /**
   * `run_command`: only in a trusted workspace, checked, shown to the user and run only when allowed; its output
   * streamed into the session as it arrives, a long one kept as a descriptor. A stop ends its process group.
   */
  private async command(args: unknown, place: CallPlace, signal: AbortSignal): Promise<Settled> {
    const workspace = this.host.workspace();
    if (!workspace.trusted) {
      return failed(
        new ToolError(
          'permission_denied',
          'This workspace is not trusted (Restricted Mode), so commands cannot run. Do not try again; tell the user ' +
            'the command instead, to run it themselves.',
        ),
      );
    }
    let confirmation: ConfirmationRecord;
    let cwd: string;
    let input;
    try {
      input = parseRunCommandInput(args);
      cwd = await commandFolder(input.cwd, workspace.roots);
      confirmation = { kind: 'command', command: input.command, cwd, timeoutS: input.timeout_s ?? DEFAULT_TIMEOUT_S };
    } catch (error) {
      if (error instanceof ToolError) return failed(error);
      throw error;
    }
    if (!(await this.ask(place, confirmation, this.host.autoApproveCommands(), signal))) {
      return denied(
        `The user denied running ${quoteInput(input.command)} in ${cwd}. Do not run this command again unless the user ` +
          'asks for it; ask the user what to do instead.',
      );
    }
    try {
      const result = await runCommandTool({ ...input, cwd }, this.commandOutput(), {
        roots: workspace.roots,
        inlineChars: this.host.limits().maxToolOutputChars,
        pageSize: this.session.pageSize,
        signal,
      });
      return {
        status: result.cancelled ? 'error' : 'done',
        result: result.text,
        summary: result.summary,
        ...(result.kept === undefined ? {} : { descriptor: result.kept.id }),
      };
    } catch (error) {
      if (error instanceof ToolError) return failed(error);
      return failed(unexpectedToolError('run_command', error, true));
    }
  }

  /** A command's output: streamed into the store through the host, kept as a `tool_output` descriptor of the session. */
  private commandOutput(): CommandOutputTarget<KeptOutput> {
    return {
      start: () => {
        const output = this.host.streamOutput();
        return {
          write: (piece) => output.write(piece),
          abort: () => output.abort(),
          keep: async (run) => {
            const content = await output.seal();
            const descriptor = this.session.addDescriptor('tool_output', content, {
              toolName: RUN_COMMAND_TOOL,
              command: run,
            });
            return { id: descriptor.id, content };
          },
        };
      },
    };
  }

  /**
   * Shows `confirmation` on the call and waits for the user's answer (unless `autoApprove`); true to go ahead.
   * A stop while waiting ends the round.
   */
  private async ask(
    place: CallPlace,
    confirmation: ConfirmationRecord,
    autoApprove: boolean,
    signal: AbortSignal,
  ): Promise<boolean> {
    const entry = place.entry;
    entry.confirmation = confirmation;
    if (autoApprove) return true;
    entry.status = 'awaitingConfirmation';
    this.show(place);
    this.listener.changed();
    const allowed = await this.host.confirm(entry.callId, confirmation, signal);
    if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
    if (!allowed) return false;
    entry.status = 'running';
    this.show(place);
    return true;
  }

  /** `fd_to_file`: checked, shown to the user, written only when allowed. */
  private async write(args: unknown, place: CallPlace, signal: AbortSignal): Promise<Settled> {
    const workspace = this.host.workspace();
    if (!workspace.trusted) {
      return failed(untrustedWriteError());
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
    if (!(await this.ask(place, confirmation, this.host.autoApproveWrites(), signal))) {
      const denial = new ToolError(
        'permission_denied',
        `The user denied writing ${confirmation.source} to ${confirmation.path}. Do not try this write again unless the user asks for it; ` +
          'tell the user where the content is (it stays available as ' +
          confirmation.source +
          ').',
        confirmation.source,
      );
      return { status: 'denied', result: denial.toXml() };
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

function denied(message: string): Settled {
  return { status: 'denied', result: new ToolError('permission_denied', message).toXml() };
}

function failed(error: ToolError): Settled {
  return settled(toolFailure(error));
}

function settled(outcome: ToolOutcome): Settled {
  return { status: outcome.ok ? 'done' : 'error', result: outcome.text };
}
