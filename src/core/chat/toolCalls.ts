/**
 * The tool calls of a round, run in order: the descriptor tools in the session, `fd_to_file` and `run_command` only
 * after the user allowed them (or the settings do), any other tool through the host (asking first when the tool
 * says so), its long output kept as a descriptor. Every failure goes back to the model as `<fd_error>`; only a
 * stop ends the round early.
 */
import { errorMessage } from '../errors';
import { quoteInput } from '../quoteInput';
import type { Session } from '../session/session';
import { ToolError } from '../toolError';
import { toolFailure, toolsOn, type ToolOutcome } from '../tools/toolTable';
import { untrustedError, writesOutside, type ToolPreview, type ToolRecord } from '../tools/toolRecord';
import type { ToolEnvironment } from '../session/session';
import { READ_RESULT_CHARS } from '../tools/toolContext';
import type { ConversationHost, ConversationListener, ExtraTool } from './conversationHost';
import { ModelError, type ModelToolCall } from './modelClient';
import type { AssistantMessageRecord, ConfirmationRecord, RoundRecord, ToolCallRecord } from '../session/transcript';
import { RUN_COMMAND_TOOL, type CommandOutputTarget, type KeptOutput } from '../tools/runCommand';
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
    const record = toolsOn('chat').find((t) => t.name === call.name);
    if (record !== undefined) {
      const environment = this.environment(signal);
      if (writesOutside(record)) return this.guarded(record, args, environment, place, signal);
      return settled(await this.session.runTool(call.name, args, environment));
    }
    const extras = this.host.extraTools();
    const extra = extras.find((t) => t.definition.name === call.name);
    if (!extra) {
      const why = this.host.missingTool?.(call.name);
      if (why !== undefined) return failed(new ToolError('not_found', why));
      const names = [...offeredTools(this.host.workspace().trusted), ...extras].map(toolName).join(', ');
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

  /** Where the chat's tools run now: the workspace folders, the result budget, how commands run. */
  private environment(signal: AbortSignal): ToolEnvironment {
    const { roots, fileSystem, trusted } = this.host.workspace();
    const { maxToolOutputChars } = this.host.limits();
    const storeSearch = this.host.storeSearch?.();
    return {
      ...(storeSearch === undefined ? {} : { storeSearch }),
      workspaceRoots: roots,
      fileSystem,
      workspaceTrusted: trusted,
      resultChars: Math.max(READ_RESULT_CHARS, maxToolOutputChars),
      commands: { output: this.commandOutput(), inlineChars: maxToolOutputChars, signal },
    };
  }

  /**
   * A tool that writes files or runs commands: only in a trusted workspace, checked, shown to the user and run only
   * when allowed (or the settings say so). A stop ends a command's process group.
   */
  private async guarded(
    record: ToolRecord,
    args: unknown,
    environment: ToolEnvironment,
    place: CallPlace,
    signal: AbortSignal,
  ): Promise<Settled> {
    if (!this.host.workspace().trusted) return failed(untrustedError(record));
    let confirmation: ConfirmationRecord;
    try {
      confirmation = this.confirmationOf(await this.session.previewCall(record.name, args, environment));
    } catch (error) {
      if (error instanceof ToolError) return failed(error);
      throw error;
    }
    const command = confirmation.kind === 'command';
    const auto = command ? this.host.autoApproveCommands() : this.host.autoApproveWrites();
    if (!(await this.ask(place, confirmation, auto, signal))) return denial(confirmation);
    const outcome = await this.session.runTool(record.name, args, environment);
    if (!outcome.ok) return settled(outcome);
    return {
      status: outcome.cancelled === true ? 'error' : 'done',
      result: outcome.text,
      ...(outcome.summary === undefined ? {} : { summary: outcome.summary }),
      ...(outcome.kept === undefined ? {} : { descriptor: outcome.kept }),
    };
  }

  /** What the user is asked to allow for `preview`. */
  private confirmationOf(preview: ToolPreview): ConfirmationRecord {
    if (preview.kind === 'command')
      return { kind: 'command', command: preview.command, cwd: preview.cwd, timeoutS: preview.timeoutS };
    return {
      source: preview.source,
      path: this.host.displayPath(preview.target),
      mode: preview.mode,
      ...(preview.line === undefined ? {} : { line: preview.line }),
      chars: preview.chars,
      bytes: preview.bytes,
      replacesFile: preview.mode === 'write' && preview.fileExists,
      fileExists: preview.fileExists,
    };
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

/** The chat's own tools offered now: `run_command` only in a trusted workspace. */
export function offeredTools(trusted: boolean): ToolRecord[] {
  return toolsOn('chat').filter((t) => trusted || t.effect !== 'run');
}

function toolName(tool: ToolRecord | ExtraTool): string {
  return 'definition' in tool ? tool.definition.name : tool.name;
}

/** What the model is told when the user denied `confirmation`. */
function denial(confirmation: ConfirmationRecord): Settled {
  if (confirmation.kind === 'command') {
    return denied(
      `The user denied running ${quoteInput(confirmation.command)} in ${confirmation.cwd}. Do not run this command ` +
        'again unless the user asks for it; ask the user what to do instead.',
    );
  }
  if (confirmation.kind === 'tool') return denied('The user denied this call.');
  const error = new ToolError(
    'permission_denied',
    `The user denied writing ${confirmation.source} to ${confirmation.path}. Do not try this write again unless the user asks for it; ` +
      `tell the user where the content is (it stays available as ${confirmation.source}).`,
    confirmation.source,
  );
  return { status: 'denied', result: error.toXml() };
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
