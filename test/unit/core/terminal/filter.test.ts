import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  MAX_HELD_LINE_CHARS,
  MAX_DROPPED_STRING_CHARS,
  MAX_STRING_CHARS,
  TerminalTextFilter,
  terminalText,
} from '../../../../src/core/terminal/terminalTextFilter';

const ESC = '\x1b';

/** The filter's output when `input` arrives cut at `cuts` (sorted positions). */
function inPieces(input: string, cuts: readonly number[]): string {
  const filter = new TerminalTextFilter();
  let out = '';
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    out += filter.push(input.slice(from, cut));
    from = cut;
  }
  return out + filter.push(input.slice(from)) + filter.end();
}

/** Plain text: no controls but tab and line feed. */
const plainText = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('\n', '\t', 'é😀', ' ')), { maxLength: 30 })
  .map((parts) => parts.join('').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, ''));

/** Terminal output: text mixed with sequences of every kind, line ends, stray controls. */
const terminalOutput = fc
  .array(
    fc.oneof(
      plainText,
      fc.constantFrom(
        `${ESC}[31m`,
        `${ESC}[0m`,
        `${ESC}[?25l`,
        `${ESC}[?2004h`,
        `${ESC}[2K`,
        `${ESC}]633;C\x07`,
        `${ESC}]633;E;seq 1 10;nonce\x07`,
        `${ESC}]133;D;0${ESC}\\`,
        `${ESC}]0;title\x07`,
        `${ESC}]8;;https://example.com${ESC}\\link${ESC}]8;;${ESC}\\`,
        `${ESC}P1$r0m${ESC}\\`,
        `${ESC}_apc${ESC}\\`,
        `${ESC}(B`,
        `${ESC}7`,
        `${ESC}=`,
        '\u009b1;2H',
        '\u009d0;t\u009c',
        '\r\n',
        '\r',
        '\n',
        '\x07',
        '\b',
        ESC,
        '\x18',
        '\u0085',
      ),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('the terminal text filter', () => {
  it('removes colors, cursor moves, titles, hyperlinks and shell integration marks', () => {
    const raw = `${ESC}]633;A\x07${ESC}]633;B\x07${ESC}]633;E;printf red;abc\x07${ESC}]633;C\x07${ESC}[31mred${ESC}[0m\r\n${ESC}]0;user@host: ~\x07${ESC}[?2004h${ESC}]8;id=1;http://x${ESC}\\link${ESC}]8;;${ESC}\\ ok\r\n${ESC}]633;D;0\x07`;
    assert.equal(terminalText(raw), 'red\nlink ok\n');
  });

  it('turns \\r\\n into \\n and keeps only the last state of a line redrawn with \\r', () => {
    assert.equal(terminalText('a\r\nb\r\n'), 'a\nb\n');
    assert.equal(terminalText('10%\r50%\r100%\ndone\n'), '100%\ndone\n');
    assert.equal(terminalText(`copying\r${ESC}[Kcopied\n`), 'copied\n');
    assert.equal(terminalText('text\r'), 'text');
    assert.equal(terminalText('text\r\r\n'), 'text\n');
  });

  it('drops the other controls and keeps tabs and non-ASCII text', () => {
    assert.equal(terminalText('a\x07b\x00c\x7fd\u0085e\tf é😀\n'), 'abcde\tf é😀\n');
  });

  it('removes a sequence split between two chunks', () => {
    const filter = new TerminalTextFilter();
    const out = filter.push(`red${ESC}`) + filter.push('[3') + filter.push('1mX') + filter.push(`${ESC}]633;`);
    assert.equal(out + filter.push('D;0\x07\n') + filter.end(), 'redX\n');
  });

  it('does not let an unterminated OSC swallow more than the rest of its line, nor more than its bound', () => {
    const after = 'y'.repeat(1000);
    const long = 'x'.repeat(MAX_STRING_CHARS);
    assert.equal(terminalText(`a\n${ESC}]0;${long}${after}\nnext line\n`), 'a\n\nnext line\n');
    assert.equal(terminalText(`${ESC}]0;short\nstill in it\x07shown\n`), 'shown\n', 'a short one swallows lines');
    const out = terminalText(`${ESC}]${'x'.repeat(MAX_DROPPED_STRING_CHARS)}${after}\n`);
    assert.equal(out, `${after}\n`, 'past the bound what follows is text');
  });

  it('drops an OSC 52 clipboard payload longer than MAX_STRING_CHARS whole, whatever the chunks (property)', () => {
    const payload = Buffer.from('s3cret '.repeat(20_000)).toString('base64');
    assert.ok(payload.length > MAX_STRING_CHARS);
    const input = `before\n${ESC}]52;c;${payload}\x07after\n${ESC}]52;c;${payload}${ESC}\\end\n`;
    assert.equal(terminalText(input), 'before\nafter\nend\n');
    fc.assert(
      fc.property(fc.array(fc.nat(input.length), { maxLength: 6 }), (cuts) => {
        assert.equal(inPieces(input, cuts), terminalText(input));
      }),
      { numRuns: 50 },
    );
  });

  it('passes a very long line on without holding it whole', () => {
    const filter = new TerminalTextFilter();
    const long = 'z'.repeat(MAX_HELD_LINE_CHARS * 2 + 5);
    assert.equal(filter.push(long).length, MAX_HELD_LINE_CHARS * 2);
    assert.equal(filter.push('\rnew\n') + filter.end(), 'zzzzz\nnew\n');
  });

  it('gives the same text whatever the chunks (property)', () => {
    fc.assert(
      fc.property(terminalOutput, fc.array(fc.nat(), { maxLength: 8 }), (input, cuts) => {
        const positions = cuts.map((c) => c % (input.length + 1));
        assert.equal(inPieces(input, positions), terminalText(input));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same text whatever the chunks, also for lines longer than it holds (property)', () => {
    const long = 'a'.repeat(MAX_HELD_LINE_CHARS + 10);
    const input = `${long}\rb${ESC}[0m\r\n${long}${long}\r${ESC}[2Kc\n`;
    fc.assert(
      fc.property(fc.array(fc.nat(input.length), { maxLength: 6 }), (cuts) => {
        assert.equal(inPieces(input, cuts), terminalText(input));
      }),
      { numRuns: 100 },
    );
    assert.equal(terminalText(input), `${long}\nb\n${long}${long}\nc\n`);
  });

  it('passes plain text unchanged (property)', () => {
    fc.assert(
      fc.property(plainText, (text) => {
        assert.equal(terminalText(text), text);
      }),
      { numRuns: 500 },
    );
  });

  it('never outputs ESC, C1 controls or a carriage return (property)', () => {
    fc.assert(
      fc.property(fc.oneof(terminalOutput, fc.string({ unit: 'binary' })), (input) => {
        assert.doesNotMatch(terminalText(input), /[\x1b\r\u0080-\u009f]/);
      }),
      { numRuns: 1000 },
    );
  });

  it('filters 10 MB of colored output in linear time', () => {
    const line = `${ESC}[32mok${ESC}[0m line of output 0123456789\r\n`;
    const small = line.repeat(20_000);
    const big = line.repeat(200_000);
    const time = (input: string): number => {
      const start = performance.now();
      const filter = new TerminalTextFilter();
      for (let i = 0; i < input.length; i += 4096) filter.push(input.slice(i, i + 4096));
      filter.end();
      return performance.now() - start;
    };
    // The fastest of three runs each (warmed up), so a busy machine does not decide the ratio.
    const fastest = (input: string): number => Math.min(time(input), time(input), time(input));
    time(big);
    const ratio = fastest(big) / Math.max(fastest(small), 1);
    assert.ok(ratio < 25, `10x the input took ${ratio.toFixed(1)}x the time`);
  });
});
