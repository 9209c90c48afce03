/**
 * Decodes a stream of bytes (a command's output) piece by piece, and says, for as long as it holds, that the bytes
 * are valid UTF-8: then each piece comes with exactly the bytes of its text (whole characters), which can be
 * written, hashed and indexed as they came, with no encoding back (`ContentSink.writeUtf8`), the file being the
 * output byte for byte. From the first invalid byte on, the rest is decoded by a `StringDecoder` as before (an
 * invalid sequence becomes U+FFFD) and the pieces' bytes are the raw bytes they stand for.
 */
import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';

/** One piece of the stream, decoded. */
export interface Utf8Piece {
  readonly text: string;
  /**
   * The bytes this piece stands for, not given by an earlier piece (the concatenation of every piece's bytes is the
   * stream). When `valid`, they are exactly `text` encoded as UTF-8: a character not complete at the end of a chunk
   * waits for the next one.
   */
  readonly bytes: Buffer;
  /** Whether every byte up to this piece's end was valid UTF-8. */
  readonly valid: boolean;
}

export class Utf8Pieces {
  /** While valid: the start of a character not complete yet (0 to 3 bytes). */
  private carry: Buffer | undefined;
  /** Once the stream was not valid UTF-8: the decoder of the rest. */
  private decoder: StringDecoder | undefined;

  /** Whether the stream has been valid UTF-8 so far. */
  get valid(): boolean {
    return this.decoder === undefined;
  }

  write(chunk: Buffer): Utf8Piece {
    if (this.decoder !== undefined) return { text: this.decoder.write(chunk), bytes: chunk, valid: false };
    const bytes = this.carry === undefined ? chunk : Buffer.concat([this.carry, chunk]);
    const end = bytes.length - incompleteTail(bytes);
    const whole = end === bytes.length ? bytes : bytes.subarray(0, end);
    if (!isUtf8(whole)) return this.invalid(bytes);
    this.carry = end === bytes.length ? undefined : Buffer.from(bytes.subarray(end));
    return { text: whole.toString('utf8'), bytes: whole, valid: true };
  }

  /** The end of the stream: an unfinished character left is not valid (it is decoded as U+FFFD). */
  end(): Utf8Piece {
    const carry = this.carry;
    if (this.decoder === undefined && carry === undefined) return { text: '', bytes: Buffer.alloc(0), valid: true };
    const piece = carry === undefined ? { text: '', bytes: Buffer.alloc(0) } : this.invalid(carry);
    return { text: piece.text + (this.decoder ?? this.startDecoder()).end(), bytes: piece.bytes, valid: false };
  }

  /** The first invalid byte is in `bytes` (which start at a character's start): the decoder takes over from there. */
  private invalid(bytes: Buffer): Utf8Piece {
    return { text: this.startDecoder().write(bytes), bytes, valid: false };
  }

  private startDecoder(): StringDecoder {
    this.carry = undefined;
    return (this.decoder = new StringDecoder('utf8'));
  }
}

/**
 * How many bytes at the end of `bytes` start a character they do not complete: a lead byte (of a 2, 3 or 4-byte
 * sequence) followed by fewer continuation bytes than it needs. Anything else is left to the validity check.
 */
export function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const needs =
      byte >= 0xc2 && byte <= 0xdf ? 2 : byte >= 0xe0 && byte <= 0xef ? 3 : byte >= 0xf0 && byte <= 0xf4 ? 4 : 1;
    return needs > back ? back : 0;
  }
  return 0;
}
