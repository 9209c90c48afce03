/**
 * Terminal output as text: a streaming filter that removes what a terminal interprets (ANSI/VT escape
 * sequences, shell integration marks, control characters) and keeps what it shows. Input is untrusted (any
 * program's output): the filter is a state machine over UTF-16 code units, one pass, no regular expression, its
 * state carried from one chunk to the next, so a sequence split between two chunks is removed all the same and
 * `push(a) + push(b)` always equals `push(a + b)` (a property test checks it).
 *
 * What it removes, after ECMA-48 and xterm's parser:
 * - CSI sequences (`ESC [` or U+009B, parameters including private ones like `?25l`, intermediates, a final byte);
 * - OSC strings (`ESC ]` or U+009D) ended by BEL or ST (`ESC \` or U+009C): titles, hyperlinks, and shell
 *   integration's OSC 633 and 133 marks;
 * - DCS, SOS, PM and APC strings (`ESC P`, `ESC X`, `ESC ^`, `ESC _` or U+0090, U+0098, U+009E, U+009F), ended by ST;
 * - other escape sequences (`ESC 7`, `ESC ( B`, `ESC =`, ...), the other C1 controls (U+0080–U+009F), and C0
 *   controls other than tab, line feed and carriage return (BEL, backspace, ...), and DEL.
 * CAN and SUB abort a sequence, as in a terminal. A string (OSC, DCS, ...) is swallowed whole up to
 * `MAX_STRING_CHARS`, line feeds included, as a terminal does. Past that it is dropped until its terminator, a line
 * feed (which ends it and the line) or `MAX_DROPPED_STRING_CHARS` in all (what follows is then text): an OSC 52
 * clipboard payload (base64, no line feed, may hold a secret) is dropped whole, while an unterminated string
 * swallows at most the rest of its line, and never more than that bound.
 *
 * Line ends: `\r\n` becomes `\n`. A bare `\r` (a progress bar redrawing its line) returns to the line's start as
 * a terminal does: the next text replaces what the line held, so a progress bar keeps only its last state and
 * `50%\r100%\n` gives `100%\n`. A `\r` followed only by line ends or sequences replaces nothing (`text\r\n`,
 * `text\r` at the end). The line being drawn is held until its line end; a line longer than `MAX_HELD_LINE_CHARS`
 * is passed on at that length, and a `\r` after that starts a new line instead of replacing what was passed on.
 */

/** A string sequence (OSC, DCS, SOS, PM, APC) is swallowed whole, line feeds included, up to this length. */
export const MAX_STRING_CHARS = 65_536;
/**
 * The most characters of one string sequence dropped, after which what follows is text (past `MAX_STRING_CHARS`
 * a line feed ends it sooner). xterm.js, VS Code's terminal, handles at most 10 MB of an OSC payload.
 */
export const MAX_DROPPED_STRING_CHARS = 16 * 1024 * 1024;
/** A CSI or escape sequence with more parameter or intermediate characters than this is dropped as it stands. */
export const MAX_CONTROL_CHARS = 256;
/** The longest line held back for a `\r` to replace; a longer one is passed on as it is. */
export const MAX_HELD_LINE_CHARS = 65_536;

const enum State {
  Ground,
  /** After ESC. */
  Escape,
  /** After ESC and an intermediate (0x20–0x2F), until a final byte. */
  EscapeIntermediate,
  Csi,
  /** OSC: ended by BEL or ST. */
  Osc,
  /** DCS, SOS, PM, APC: ended by ST. */
  String,
}

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const DEL = 0x7f;

/** Removes terminal control sequences from a stream of output chunks; see the file's comment for the rules. */
export class TerminalTextFilter {
  private state = State.Ground;
  /** Characters of the current sequence so far (for the caps). */
  private sequenceChars = 0;
  /** The line being drawn (since the last line end or the last line passed on). */
  private line = '';
  /** A bare `\r` was seen: the next text replaces `line`. */
  private returned = false;
  /** Part of the current line was passed on already (it was long): a `\r` can no longer replace it. */
  private linePassedOn = false;

  /** The text of `chunk`, given what came before; some of it may be held back until a later chunk or `end()`. */
  push(chunk: string): string {
    let out = '';
    let runStart = -1;
    const length = chunk.length;
    for (let i = 0; i < length; i++) {
      const c = chunk.charCodeAt(i);
      if (this.state === State.Ground && isText(c)) {
        if (runStart < 0) runStart = i;
        continue;
      }
      if (runStart >= 0) {
        out += this.text(chunk.slice(runStart, i));
        runStart = -1;
      }
      out += this.control(c);
    }
    if (runStart >= 0) out += this.text(chunk.slice(runStart));
    return out;
  }

  /** What is still held back (the last line, without a line end); the filter starts afresh after it. */
  end(): string {
    const rest = this.line;
    this.line = '';
    this.returned = false;
    this.linePassedOn = false;
    this.state = State.Ground;
    this.sequenceChars = 0;
    return rest;
  }

  /** Plain text in the ground state: it goes on the current line (replacing it after a bare `\r`). */
  private text(run: string): string {
    if (this.returned) {
      this.returned = false;
      if (this.linePassedOn) {
        // What the `\r` would replace was passed on already: the new text starts a line of its own.
        const rest = this.line;
        this.linePassedOn = false;
        this.line = run;
        return rest + '\n' + this.passOnLongLine();
      }
      this.line = run;
    } else {
      this.line += run;
    }
    return this.passOnLongLine();
  }

  /** Passes on the held line in pieces of `MAX_HELD_LINE_CHARS` while it is that long or longer. */
  private passOnLongLine(): string {
    if (this.line.length < MAX_HELD_LINE_CHARS) return '';
    const whole = this.line.length - (this.line.length % MAX_HELD_LINE_CHARS);
    const out = this.line.slice(0, whole);
    this.line = this.line.slice(whole);
    this.linePassedOn = true;
    return out;
  }

  private endLine(): string {
    const out = this.line + '\n';
    this.line = '';
    this.returned = false;
    this.linePassedOn = false;
    return out;
  }

  /** One character that is not plain text in the ground state (or any character inside a sequence). */
  private control(c: number): string {
    switch (this.state) {
      case State.Ground:
        return this.groundControl(c);
      case State.Escape:
        return this.escape(c);
      case State.EscapeIntermediate:
        if (c >= 0x20 && c <= 0x2f) return this.countControl();
        if (c >= 0x30 && c <= 0x7e) return this.toGround();
        return this.interrupt(c);
      case State.Csi:
        if (c >= 0x20 && c <= 0x3f) return this.countControl();
        if (c >= 0x40 && c <= 0x7e) return this.toGround();
        return this.interrupt(c);
      case State.Osc:
        if (c === BEL || c === 0x9c) return this.toGround();
        return this.stringChar(c);
      case State.String:
        if (c === 0x9c) return this.toGround();
        return this.stringChar(c);
    }
  }

  private groundControl(c: number): string {
    switch (c) {
      case LF:
        return this.endLine();
      case CR:
        this.returned = true;
        return '';
      case ESC:
        return this.begin(State.Escape);
      case 0x9b:
        return this.begin(State.Csi);
      case 0x9d:
        return this.begin(State.Osc);
      case 0x90:
      case 0x98:
      case 0x9e:
      case 0x9f:
        return this.begin(State.String);
      default:
        return ''; // any other C0 or C1 control, DEL
    }
  }

  private escape(c: number): string {
    switch (c) {
      case 0x5b: // [
        return this.begin(State.Csi);
      case 0x5d: // ]
        return this.begin(State.Osc);
      case 0x50: // P
      case 0x58: // X
      case 0x5e: // ^
      case 0x5f: // _
        return this.begin(State.String);
      default:
        if (c >= 0x20 && c <= 0x2f) return this.begin(State.EscapeIntermediate);
        if (c >= 0x30 && c <= 0x7e) return this.toGround();
        return this.interrupt(c);
    }
  }

  /** A character inside an OSC or other string: ESC may start its ST (or a new sequence), CAN/SUB abort it. */
  private stringChar(c: number): string {
    if (c === ESC) return this.begin(State.Escape);
    if (c === CAN || c === SUB) return this.toGround();
    if (++this.sequenceChars > MAX_STRING_CHARS) {
      // Overlong (an OSC 52 clipboard payload, or never terminated): a line feed ends it and its line.
      if (c === LF) {
        this.toGround();
        return this.endLine();
      }
      if (this.sequenceChars > MAX_DROPPED_STRING_CHARS) {
        // Not a sequence a terminal keeps: give up on it and treat what follows as text.
        this.toGround();
        return this.groundCharacter(c);
      }
    }
    return '';
  }

  /** A parameter or intermediate character of a CSI or escape sequence, within its cap. */
  private countControl(): string {
    if (++this.sequenceChars > MAX_CONTROL_CHARS) this.toGround();
    return '';
  }

  /**
   * A character that cannot continue a CSI or escape sequence: the sequence is dropped. Controls act as they
   * would in the ground state (ESC starts a new sequence, a line feed ends the line); other characters are text.
   */
  private interrupt(c: number): string {
    this.toGround();
    return c === CAN || c === SUB ? '' : this.groundCharacter(c);
  }

  private groundCharacter(c: number): string {
    return isText(c) ? this.text(String.fromCharCode(c)) : this.groundControl(c);
  }

  private begin(state: State): string {
    this.state = state;
    this.sequenceChars = 0;
    return '';
  }

  private toGround(): string {
    this.state = State.Ground;
    this.sequenceChars = 0;
    return '';
  }
}

/** Whether `c` is shown as it is: tab and everything but C0 controls, DEL and C1 controls. */
function isText(c: number): boolean {
  if (c >= 0x20) return c !== DEL && (c < 0x80 || c > 0x9f);
  return c === TAB;
}

/** The text of a whole output at once (for tests and small inputs). */
export function terminalText(output: string): string {
  const filter = new TerminalTextFilter();
  return filter.push(output) + filter.end();
}
