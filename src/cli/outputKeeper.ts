/**
 * Where the wrapper's command output goes. Output up to the preview size is held (raw bytes) and printed unchanged
 * when the command ends: it needs no handle, so it is not stored (the agent sees exactly what it would have seen
 * without fdref, and a command that prints little costs no store work at all). Once the output passes that size it
 * is streamed into a spool of the store (a `ContentSink`, sealed and moved into the agent's session at the end) and
 * the model is shown a bounded preview starting with its handle.
 *
 * Beside the content, the raw bytes are appended to a file of the spool: if storing fails at any point (a full
 * disk, a store that cannot be written, a journal that refuses the record), the output is still printed whole and
 * byte for byte from that file and the rest passed straight through, with one note on stderr. Memory is bounded
 * throughout: the held short output, one piece, and the preview builder's head, tail and error lines.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CommandRun } from '../core/descriptors/descriptorDetails';
import { errorMessage } from '../core/errors';
import { OutputPreviewBuilder, previewLimits, renderOutputPreview } from '../core/presentation/outputPreview';
import type { Store } from '../core/store';
import type { AgentSessionKey, KeptInSession, OutputSpool } from '../core/store/agentSession';
import type { ContentSink } from '../core/store/contentSink';
import { storeModules } from './lazy';
import { handleLine, oneLine } from './previewText';
import { writeOut } from './storeAccess';

/**
 * Bytes of output between two garbage collections. Each piece leaves large strings behind (the decoded text, the
 * sink's encoded pieces) that V8 would let pile up to a few hundred MB before collecting; collecting every 8 MB
 * keeps the wrapper's memory near Node's own for any output size, at a few milliseconds each.
 */
const COLLECT_EVERY_BYTES = 8 << 20;

let gc: (() => void) | undefined | null;
/** A full collection, where V8 lets it be exposed at run time (else nothing). */
function collectGarbage(): void {
  if (gc === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    } catch {
      gc = null;
    }
  }
  gc?.();
}

/** The tool name a kept output's descriptor carries: the shell tool of an agent, through the wrapper. */
export const WRAPPER_TOOL = 'shell';

export interface KeeperOptions {
  readonly previewChars: number;
  /** The store folder (opened, created when missing, only once the output is long). */
  readonly storeFolder: string;
  readonly key: AgentSessionKey;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** The lines after the handle: how to read, search and tail `fd` of `session`. */
  readonly hints: (kept: KeptInSession, storeRoot: string) => string;
}

/** How the command ended, for the descriptor and the handle line. */
export interface FinishedCommand {
  readonly commandLine: string;
  readonly cwd: string;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly status: number;
  readonly startedAt: Date;
  readonly endedAt: Date;
}

interface Spooling {
  readonly store: Store;
  readonly spool: OutputSpool;
  readonly sink: ContentSink;
  readonly raw: fs.FileHandle;
  rawBytes: number;
}

export class OutputKeeper {
  private state: 'short' | 'long' | 'passthrough' = 'short';
  private held: Buffer[] = [];
  private heldText: string[] = [];
  private heldChars = 0;
  private readonly decoder = new StringDecoder('utf8');
  private readonly builder: OutputPreviewBuilder;
  private spooling: Spooling | undefined;
  private stdoutGone = false;
  /** Why the output is passed through instead of kept. */
  private failure: string | undefined;

  constructor(private readonly options: KeeperOptions) {
    this.builder = new OutputPreviewBuilder(previewLimits(options.previewChars));
  }

  /** Takes the next piece of output (await it: reading the command's pipe waits, so memory stays bounded). */
  async push(chunk: Buffer): Promise<void> {
    if (this.state === 'passthrough') return this.passOn(chunk);
    const text = this.decoder.write(chunk);
    this.builder.push(text);
    if (this.state === 'short') {
      this.held.push(chunk);
      this.heldText.push(text);
      this.heldChars += text.length;
      if (this.heldChars > this.options.previewChars) await this.startSpooling();
      return;
    }
    await this.spoolPiece(chunk, text);
  }

  /** Prints what the agent sees once the command has ended; never throws for the store's sake. */
  async finish(command: FinishedCommand): Promise<void> {
    if (this.state === 'short') {
      for (const chunk of this.held) await writeOut(this.options.stdout, chunk);
      return;
    }
    const spooling = this.spooling;
    if (this.state === 'passthrough' || spooling === undefined) return this.note();
    const rest = this.decoder.end();
    this.builder.push(rest);
    let kept: KeptInSession;
    try {
      if (rest.length > 0) await spooling.sink.write(rest);
      const { ref } = await spooling.sink.seal();
      kept = await storeModules().keepInAgentSession(spooling.store, this.options.key, spooling.spool.folder, ref, {
        source: 'tool_output',
        toolName: WRAPPER_TOOL,
        command: commandRun(command, ref.chars),
      });
    } catch (error) {
      await this.printSpooled(spooling, error);
      await this.cleanUp(spooling);
      return this.note();
    }
    await this.cleanUp(spooling);
    const output = this.builder.finish();
    const preview = renderOutputPreview(
      {
        handle: handleLine(kept, output, howItEnded(command)),
        hints: this.options.hints(kept, spooling.store.root),
        output,
      },
      this.options.previewChars,
    );
    await writeOut(this.options.stdout, preview.endsWith('\n') ? preview : preview + '\n');
  }

  private async startSpooling(): Promise<void> {
    let spool: OutputSpool | undefined;
    try {
      const { Store, OutputSpool } = storeModules();
      const store = await Store.open(this.options.storeFolder);
      spool = await OutputSpool.create(store);
      const raw = await fs.open(path.join(spool.folder, 'raw'), 'wx+');
      this.spooling = { store, spool, sink: spool.sink(store), raw, rawBytes: 0 };
      this.state = 'long';
    } catch (error) {
      await spool?.remove().catch(() => undefined);
      this.failure = errorMessage(error);
      this.state = 'passthrough';
      for (const chunk of this.held) await this.passOn(chunk);
      this.dropHeld();
      return;
    }
    const held = this.held;
    const text = this.heldText.join('');
    this.dropHeld();
    await this.spoolPiece(Buffer.concat(held), text);
  }

  private async spoolPiece(chunk: Buffer, text: string): Promise<void> {
    const spooling = this.spooling as Spooling;
    if (
      Math.floor((spooling.rawBytes + chunk.length) / COLLECT_EVERY_BYTES) >
      Math.floor(spooling.rawBytes / COLLECT_EVERY_BYTES)
    )
      collectGarbage();
    try {
      // The raw bytes first: whatever fails after, the file holds everything up to and including this piece.
      let written = 0;
      while (written < chunk.length)
        written += (await spooling.raw.write(chunk, written, chunk.length - written, spooling.rawBytes + written))
          .bytesWritten;
      spooling.rawBytes += chunk.length;
    } catch (error) {
      await this.fallBack(spooling, error, chunk);
      return;
    }
    try {
      await spooling.sink.write(text);
    } catch (error) {
      await this.fallBack(spooling, error, undefined);
    }
  }

  /** Storing failed while the command runs: everything so far is printed, the rest passes through. */
  private async fallBack(spooling: Spooling, error: unknown, unwritten: Buffer | undefined): Promise<void> {
    await this.printSpooled(spooling, error);
    if (unwritten !== undefined) await this.passOn(unwritten);
    await spooling.sink.abort().catch(() => undefined);
    await this.cleanUp(spooling);
    this.state = 'passthrough';
  }

  /** Prints the raw bytes spooled so far, byte for byte. */
  private async printSpooled(spooling: Spooling, error: unknown): Promise<void> {
    this.failure ??= errorMessage(error);
    const buffer = Buffer.alloc(1 << 16);
    for (let at = 0; at < spooling.rawBytes;) {
      const { bytesRead } = await spooling.raw.read(buffer, 0, Math.min(buffer.length, spooling.rawBytes - at), at);
      if (bytesRead === 0) throw new Error(`The spooled output ended at byte ${at} of ${spooling.rawBytes}.`);
      await this.passOn(Buffer.from(buffer.subarray(0, bytesRead)));
      at += bytesRead;
    }
  }

  private async cleanUp(spooling: Spooling): Promise<void> {
    await spooling.raw.close().catch(() => undefined);
    await spooling.spool.remove().catch(() => undefined);
  }

  /**
   * Writes a piece straight to stdout. When stdout is gone (the reader closed it) the rest is read and dropped: the
   * command runs to its end as it would have, and its status is not lost to a write error.
   */
  private async passOn(chunk: Buffer): Promise<void> {
    if (this.stdoutGone) return;
    await writeOut(this.options.stdout, chunk).catch(() => {
      this.stdoutGone = true;
    });
  }

  private dropHeld(): void {
    this.held = [];
    this.heldText = [];
    this.heldChars = 0;
  }

  private async note(): Promise<void> {
    await writeOut(
      this.options.stderr,
      `fdref: the output was not kept (${oneLine(this.failure ?? 'unknown error')}); it is shown whole above.\n`,
    );
  }
}

/** `exit code 2`, `ended by SIGKILL (exit status 137)`. */
function howItEnded(command: Pick<FinishedCommand, 'exitCode' | 'signal' | 'status'>): string {
  return command.exitCode !== null
    ? `exit code ${command.exitCode}`
    : `ended by ${command.signal ?? 'a signal'} (exit status ${command.status})`;
}

/** The descriptor's record of the command. */
function commandRun(command: FinishedCommand, chars: number): CommandRun {
  return {
    commandLine: command.commandLine,
    cwd: command.cwd,
    ...(command.exitCode === null ? {} : { exitCode: command.exitCode }),
    startedAt: command.startedAt.toISOString(),
    endedAt: command.endedAt.toISOString(),
    outputChars: chars,
    cut: false,
  };
}
