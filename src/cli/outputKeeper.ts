/**
 * Where the wrapper's command output goes. Output up to the preview size is held (raw bytes) and printed unchanged
 * when the command ends: it needs no handle, so it is not stored (the agent sees exactly what it would have seen
 * without fdref, and a command that prints little costs no store work at all). Once the output passes that size it
 * is streamed into a spool of the store (a `ContentSink`, sealed and moved into the agent's session at the end) and
 * the model is shown a bounded preview starting with its handle.
 *
 * While the output is valid UTF-8 (most outputs, whole), its bytes are written once, as they came, into the
 * content file: that file is then also the output byte for byte. From the first invalid byte on, the content is
 * the decoded text (an invalid sequence becomes U+FFFD) and the raw bytes from there are appended to a file of the
 * spool beside it. If storing fails at any point (a full disk, a store that cannot be written, a journal that
 * refuses the record), the output is still printed whole and byte for byte from those two files, read back by a
 * handle of their own, and the rest passed straight through, with one note on stderr. Memory is bounded
 * throughout: the held short output, one piece, and the preview builder's head, tail and error lines.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CommandRun } from '../core/descriptors/descriptorDetails';
import { errorMessage } from '../core/errors';
import { OutputPreviewBuilder, previewLimits, renderOutputPreview } from '../core/presentation/outputPreview';
import type { AgentSessionKey, KeptInSession, OutputSpool } from '../core/store/agentSession';
import type { ContentSink } from '../core/store/contentSink';
import type { StoreLocation } from '../core/store/storeFolder';
import { Utf8Pieces, type Utf8Piece } from '../core/store/utf8Pieces';
import { spoolModules, storeModules } from './lazy';
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
  readonly store: StoreLocation;
  readonly spool: OutputSpool;
  readonly sink: ContentSink;
  /** The content file, read by a handle of its own (it reads the file after the sink has renamed or removed it). */
  readonly content: fs.FileHandle;
  /** The output's first bytes, held as they came at the start of the content file: its valid UTF-8 start. */
  contentBytes: number;
  /** The raw bytes after those, from the first invalid UTF-8 byte on (opened then). */
  raw: fs.FileHandle | undefined;
  rawBytes: number;
  /** Bytes spooled so far, for the garbage collections. */
  spooledBytes: number;
}

export class OutputKeeper {
  private state: 'short' | 'long' | 'passthrough' = 'short';
  private held: Buffer[] = [];
  private heldPieces: Utf8Piece[] = [];
  private heldChars = 0;
  private readonly pieces = new Utf8Pieces();
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
    const piece = this.pieces.write(chunk);
    this.builder.push(piece.text);
    if (this.state === 'short') {
      this.held.push(chunk);
      this.heldPieces.push(piece);
      this.heldChars += piece.text.length;
      if (this.heldChars > this.options.previewChars) await this.startSpooling();
      return;
    }
    await this.spoolPiece(this.spooling as Spooling, piece);
  }

  /** Prints what the agent sees once the command has ended; never throws for the store's sake. */
  async finish(command: FinishedCommand): Promise<void> {
    if (this.state === 'short') {
      for (const chunk of this.held) await writeOut(this.options.stdout, chunk);
      return;
    }
    const spooling = this.spooling;
    if (this.state === 'passthrough' || spooling === undefined) return this.note();
    const rest = this.pieces.end();
    this.builder.push(rest.text);
    // An unfinished character at the very end: its bytes go to the raw file, its U+FFFD to the content.
    if (!(await this.spoolPiece(spooling, rest))) return this.note();
    let kept: KeptInSession;
    try {
      const { ref } = await spooling.sink.seal();
      // The store itself (its schemas, its journal) is loaded only now, once the streaming's garbage is gone: the
      // wrapper's peak memory is the larger of the two, not their sum.
      collectGarbage();
      const store = await storeModules().Store.open(spooling.store.root, { durability: spooling.store.durability });
      kept = await spoolModules().keepInAgentSession(store, this.options.key, spooling.spool.folder, ref, {
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
      // The store's folder, not the store: see storeFolder.ts.
      const { DEFAULT_DURABILITY, OutputSpool, prepareStoreFolder } = spoolModules();
      const store: StoreLocation = { root: path.resolve(this.options.storeFolder), durability: DEFAULT_DURABILITY };
      await prepareStoreFolder(store);
      spool = await OutputSpool.create(store);
      const sink = spool.sink(store);
      const content = await sink.openForReading();
      this.spooling = { store, spool, sink, content, contentBytes: 0, raw: undefined, rawBytes: 0, spooledBytes: 0 };
      this.state = 'long';
    } catch (error) {
      await spool?.remove().catch(() => undefined);
      this.failure = errorMessage(error);
      this.state = 'passthrough';
      for (const chunk of this.held) await this.passOn(chunk);
      this.dropHeld();
      return;
    }
    const held = this.heldPieces;
    this.dropHeld();
    for (const piece of held) if (!(await this.spoolPiece(this.spooling, piece))) return;
  }

  /** Writes a piece into the spool; false when storing failed (the output was then printed and passes through). */
  private async spoolPiece(spooling: Spooling, piece: Utf8Piece): Promise<boolean> {
    const { bytes, text } = piece;
    if (
      Math.floor((spooling.spooledBytes + bytes.length) / COLLECT_EVERY_BYTES) >
      Math.floor(spooling.spooledBytes / COLLECT_EVERY_BYTES)
    )
      collectGarbage();
    spooling.spooledBytes += bytes.length;
    if (piece.valid) {
      // Written once, as they came: the content file holds them byte for byte.
      try {
        await spooling.sink.writeUtf8(bytes, text);
        spooling.contentBytes += bytes.length;
        return true;
      } catch (error) {
        return this.fallBack(spooling, error, bytes);
      }
    }
    try {
      // The raw bytes first: whatever fails after, the files hold everything up to and including this piece.
      spooling.raw ??= await fs.open(path.join(spooling.spool.folder, 'raw'), 'wx+');
      let written = 0;
      while (written < bytes.length)
        written += (await spooling.raw.write(bytes, written, bytes.length - written, spooling.rawBytes + written))
          .bytesWritten;
      spooling.rawBytes += bytes.length;
    } catch (error) {
      return this.fallBack(spooling, error, bytes);
    }
    try {
      await spooling.sink.write(text);
      return true;
    } catch (error) {
      return this.fallBack(spooling, error, undefined);
    }
  }

  /** Storing failed while the command runs: everything so far is printed, the rest passes through. */
  private async fallBack(spooling: Spooling, error: unknown, unwritten: Buffer | undefined): Promise<false> {
    await this.printSpooled(spooling, error);
    if (unwritten !== undefined) await this.passOn(unwritten);
    await spooling.sink.abort().catch(() => undefined);
    await this.cleanUp(spooling);
    this.state = 'passthrough';
    return false;
  }

  /** Prints the output spooled so far, byte for byte: the content file's valid start, then the raw bytes after it. */
  private async printSpooled(spooling: Spooling, error: unknown): Promise<void> {
    this.failure ??= errorMessage(error);
    await this.printFile(spooling.content, spooling.contentBytes);
    if (spooling.raw !== undefined) await this.printFile(spooling.raw, spooling.rawBytes);
  }

  private async printFile(file: fs.FileHandle, bytes: number): Promise<void> {
    const buffer = Buffer.alloc(1 << 16);
    for (let at = 0; at < bytes;) {
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, bytes - at), at);
      if (bytesRead === 0) throw new Error(`The spooled output ended at byte ${at} of ${bytes}.`);
      await this.passOn(Buffer.from(buffer.subarray(0, bytesRead)));
      at += bytesRead;
    }
  }

  private async cleanUp(spooling: Spooling): Promise<void> {
    await spooling.content.close().catch(() => undefined);
    await spooling.raw?.close().catch(() => undefined);
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
    this.heldPieces = [];
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
