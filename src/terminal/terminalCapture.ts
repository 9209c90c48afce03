import * as vscode from 'vscode';
import type { CommandRun } from '../core/descriptors/descriptorDetails';
import { localDay } from '../core/presentation/describe';
import { quoteInput } from '../core/quoteInput';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { excludedBy } from '../core/terminal/excludePatterns';
import { capBytes, type TerminalSettings } from '../core/settings/terminalSettings';
import { UserError } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import type { UserMessages } from '../common/userMessages';
import type { WatchedSettings } from '../common/watchedSettings';
import { CommandCapture, type CaptureMode, type StoreTarget } from './commandCapture';

/** The tool name a kept command's descriptor carries. */
export const TERMINAL_TOOL_NAME = 'terminal';

/** A command's output kept as a descriptor. */
export interface KeptOutput {
  readonly sessionId: string;
  readonly sessionName: string;
  readonly descriptorId: string;
  readonly commandLine: string;
  /** It had been kept before (the setting on, or kept on demand already): nothing new was written. */
  readonly alreadyKept: boolean;
  /** Characters the command printed (after filtering). */
  readonly outputChars: number;
  /** Characters dropped from its start (only its end was held in memory); 0 when all is kept. */
  readonly startDroppedChars: number;
}

/** The terminal events a capture follows: activation's, repeating VS Code's (src/activation/terminalEvents.ts). */
export interface TerminalEvents extends Pick<
  typeof vscode.window,
  'onDidStartTerminalShellExecution' | 'onDidEndTerminalShellExecution' | 'onDidCloseTerminal'
> {
  /** Since when they have been followed. */
  readonly since: Date;
}

/**
 * Follows the commands of every terminal with shell integration. With `fdref.terminal.keepOutput` on, each
 * command's output is streamed (filtered, capped) into the day's Terminal session as it arrives and becomes a
 * descriptor when the command ends. Off, only the end of the last command of each terminal is held in memory
 * (`MEMORY_TAIL_CHARS`), for Keep Last Terminal Output; it is let go when the next command starts or the terminal
 * closes. A command the exclude patterns match is not read at all; a command that printed nothing is not kept.
 * Settings apply to commands started after they change.
 */
export class TerminalCapture extends Disposable {
  private readonly running = new Map<vscode.TerminalShellExecution, CommandCapture>();
  private readonly last = new Map<vscode.Terminal, CommandCapture>();
  private readonly listeningSince: Date;
  private daySessions: Promise<unknown> = Promise.resolve();
  /** The day's Terminal session once found, so a command's start does not list the sessions again. */
  private today: { readonly day: string; readonly entry: SessionEntry } | undefined;
  private closed = false;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly settings: WatchedSettings<TerminalSettings>,
    private readonly messages: UserMessages,
    events: TerminalEvents,
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
    this.listeningSince = events.since;
    this._register(events.onDidStartTerminalShellExecution((event) => this.started(event)));
    this._register(events.onDidEndTerminalShellExecution((event) => this.ended(event)));
    this._register(events.onDidCloseTerminal((terminal) => this.terminalClosed(terminal)));
  }

  /**
   * Keeps the output of the active terminal's last command (finished, or as far as it has arrived), whatever
   * the setting says; a `UserError` saying exactly why when it cannot.
   */
  async keepLast(): Promise<KeptOutput> {
    const terminal = vscode.window.activeTerminal;
    if (!terminal) throw new UserError('There is no active terminal whose last command could be kept.');
    const capture = this.last.get(terminal);
    if (!capture) {
      if (!terminal.shellIntegration)
        throw new UserError(
          `FD Refs cannot see the commands of terminal "${terminal.name}": it has no shell integration (see the setting terminal.integrated.shellIntegration.enabled; bash, zsh, fish and PowerShell support it), so their output cannot be kept.`,
        );
      throw new UserError(
        `FD Refs has seen no command start in terminal "${terminal.name}" since it began listening at ${this.listeningSince.toLocaleTimeString()}: a command that started before cannot be kept. Run it again, then keep its output.`,
      );
    }
    const commandLine = quoteInput(capture.commandLine);
    const pattern = capture.excludedPattern;
    if (pattern)
      throw new UserError(
        `The last command in terminal "${terminal.name}" (${commandLine}) matches the fdref.terminal.exclude pattern ${quoteInput(pattern.source)}: FD Refs does not keep its output.`,
      );
    if (capture.failure !== undefined) throw new UserError(capture.failure);
    const sizes = (run: CommandRun): { outputChars: number; startDroppedChars: number } => ({
      outputChars: run.outputChars,
      startDroppedChars: run.startDroppedChars ?? 0,
    });
    if (capture.keptAs) {
      const meta = await this.registry.meta(capture.keptAs.sessionId);
      if (meta)
        return {
          sessionId: capture.keptAs.sessionId,
          descriptorId: capture.keptAs.descriptorId,
          sessionName: meta.name,
          commandLine: capture.commandLine,
          alreadyKept: true,
          ...sizes(capture.keptAs.run),
        };
    }
    if (capture.outputChars === 0 && !(capture.mode.kind === 'store' && capture.running))
      throw new UserError(
        `The last command in terminal "${terminal.name}" (${commandLine}) ${capture.running ? 'has printed nothing yet' : 'printed nothing'}: there is no output to keep.`,
      );
    if (capture.mode.kind === 'store')
      throw new UserError(
        `The last command in terminal "${terminal.name}" (${commandLine}) is still running; its output is being kept (fdref.terminal.keepOutput) and becomes a descriptor when it ends.`,
      );
    const { entry, target } = await this.openTarget(localDay(capture.startedAt));
    const kept = await capture.keepFromMemory(target);
    if (!capture.running) capture.keptAs = kept;
    return {
      sessionId: kept.sessionId,
      descriptorId: kept.descriptorId,
      sessionName: entry.metadata.name,
      commandLine: capture.commandLine,
      alreadyKept: false,
      ...sizes(kept.run),
    };
  }

  /** Stops following terminals; commands still running have what arrived kept (store mode), marked unfinished. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const running = [...this.running.values()];
    this.running.clear();
    for (const capture of this.last.values()) capture.release();
    this.last.clear();
    await Promise.all(running.map((capture) => capture.stop()));
  }

  override dispose(): void {
    void this.close();
    super.dispose();
  }

  private started(event: vscode.TerminalShellExecutionStartEvent): void {
    if (this.closed) return;
    const settings = this.settings.settings;
    const startedAt = this.now();
    const pattern = excludedBy(settings.exclude, event.execution.commandLine.value);
    const mode: CaptureMode = pattern
      ? { kind: 'excluded', pattern }
      : settings.keepOutput
        ? { kind: 'store', sink: this.storeSink(localDay(startedAt)) }
        : { kind: 'memory' };
    const capture = new CommandCapture(
      event.execution,
      event.terminal,
      mode,
      capBytes(settings),
      startedAt,
      (_failed, message) => void this.messages.error(message),
    );
    const previous = this.last.get(event.terminal);
    if (previous !== undefined) this.replaced(previous, startedAt);
    this.last.set(event.terminal, capture);
    this.running.set(event.execution, capture);
  }

  private ended(event: vscode.TerminalShellExecutionEndEvent): void {
    const capture = this.running.get(event.execution);
    if (!capture) return;
    this.running.delete(event.execution);
    const exclude = this.settings.settings.exclude;
    capture.ended(event.exitCode, event.execution.commandLine.value, this.now(), (line) => excludedBy(exclude, line));
  }

  /**
   * A terminal's next command started: its previous one is let go. The shell reports a command's end before it
   * starts the next, so one whose end was not reported never will be: it ends now, without an exit code (store
   * mode keeps it then), and is no longer followed.
   */
  private replaced(previous: CommandCapture, at: Date): void {
    if (this.running.get(previous.execution) === previous) {
      this.running.delete(previous.execution);
      const exclude = this.settings.settings.exclude;
      previous.ended(undefined, '', at, (line) => excludedBy(exclude, line));
      if (previous.mode.kind === 'store') void previous.stop();
    }
    if (previous.mode.kind !== 'store') previous.release();
  }

  private terminalClosed(terminal: vscode.Terminal): void {
    for (const [execution, capture] of this.running) {
      if (capture.terminal !== terminal) continue;
      this.running.delete(execution);
      void capture.stop();
    }
    this.last.get(terminal)?.release();
    this.last.delete(terminal);
  }

  /** The store target a command streams into, opened once (errors are reported by the capture). */
  private storeSink(day: string): Promise<StoreTarget> {
    const opening = this.openTarget(day).then(({ target }) => target);
    opening.catch(() => undefined); // awaited by the capture, which reports the failure
    return opening;
  }

  /**
   * The day's Terminal session: the one found before while the day is the same and this window still writes it
   * (not deleted, not released), else the registry's (which lists the sessions).
   */
  private async daySession(day: string): Promise<SessionEntry> {
    const today = this.today;
    if (today?.day === day && this.registry.holds(today.entry.metadata.id)) return today.entry;
    const entry = await this.registry.daySession('terminal', day);
    this.today = { day, entry };
    return entry;
  }

  /** A new content in the day's Terminal session and how to keep it as a descriptor. */
  private async openTarget(day: string): Promise<{ entry: SessionEntry; target: StoreTarget }> {
    // One at a time: two commands starting together must not each create the day's session.
    const entry = this.daySessions.then(() => this.daySession(day));
    this.daySessions = entry.catch(() => undefined);
    const session = await entry;
    const sessionId = session.metadata.id;
    const stream = this.registry.streamInto(sessionId);
    const target: StoreTarget = {
      write: (piece) => stream.write(piece),
      abort: () => stream.abort(),
      keep: async (command) => {
        const content = await stream.seal();
        const descriptor = session.session.addDescriptor('tool_output', content, {
          toolName: TERMINAL_TOOL_NAME,
          command,
        });
        await this.registry.changed(sessionId, { descriptors: true });
        return { sessionId, descriptorId: descriptor.id };
      },
    };
    return { entry: session, target };
  }
}
