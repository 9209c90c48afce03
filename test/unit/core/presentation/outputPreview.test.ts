import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import {
  looksLikeError,
  looksLikeWarning,
  OutputPreviewBuilder,
  previewLimits,
  renderOutputPreview,
  type OutputSummary,
} from '../../../../src/core/presentation/outputPreview';

/** Feeds `text` to a builder in pieces cut at `cuts` (offsets), as a pipe delivers it. */
function summarize(text: string, budget: number, cuts: readonly number[] = []): OutputSummary {
  const builder = new OutputPreviewBuilder(previewLimits(budget));
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (cut <= at || cut >= text.length) continue;
    builder.push(text.slice(at, cut));
    at = cut;
  }
  builder.push(text.slice(at));
  return builder.finish();
}

const HANDLE =
  'fd:7 in session Claude Code 2026-01-31 14:05 (1a2b3c4d): the whole output, 9 characters, 1 lines, exit code 2.';

/** The build log of the issue: 20,402 lines, its one error at line 20,001. */
function buildLog(): string {
  const lines: string[] = [];
  for (let n = 1; n <= 20_402; n++)
    lines.push(n === 20_001 ? 'src/parser.c:112:9: error: expected ; before }' : `[${n}/20402] CC obj/file${n}.o`);
  return lines.join('\n') + '\n';
}

describe('the preview of a long command output', () => {
  it('shows the handle first, then the head, the error line from the middle with its line number, and the tail', () => {
    const log = buildLog();
    const output = summarize(log, 8000, [65536, 131072, 700_000]);
    assert.equal(output.chars, log.length);
    assert.equal(output.lines, 20_402);
    assert.deepEqual(output.errors, [{ line: 20_001, text: 'src/parser.c:112:9: error: expected ; before }' }]);
    const preview = renderOutputPreview({ handle: HANDLE, hints: 'Read it with read_fd(fd="fd:7").', output }, 8000);
    assert.ok(preview.startsWith(HANDLE + '\n'), preview.slice(0, 200));
    assert.ok(preview.length <= 8000);
    assert.match(preview, /\n20001: src\/parser\.c:112:9: error: expected ; before }\n/);
    assert.ok(preview.includes('[1/20402] CC obj/file1.o\n'), 'the head');
    assert.ok(preview.endsWith('[20402/20402] CC obj/file20402.o\n'), 'the tail');
    assert.ok(
      preview.indexOf('[1/20402]') < preview.indexOf('20001: ') &&
        preview.indexOf('20001: ') < preview.indexOf('[20402/'),
    );
  });

  it('finds an error word split between two pieces of output', () => {
    const text = 'ok\nfirst line\nthe build fai' + 'led here\nmore\n';
    const output = summarize(text, 2000, [text.indexOf('fai') + 3]);
    assert.deepEqual(output.errors, [{ line: 3, text: 'the build failed here' }]);
  });

  it('counts the error lines past its limit and says how many more there are', () => {
    const text = Array.from({ length: 100 }, (_, i) => `error ${i + 1}${' .'.repeat(50)}`).join('\n');
    const output = summarize(text, 4000);
    assert.equal(output.errors.length, previewLimits(4000).errorLines);
    assert.equal(output.moreErrors, 100 - output.errors.length);
    const preview = renderOutputPreview({ handle: HANDLE, hints: '', output }, 4000);
    assert.match(preview, /--- 100 lines that look like errors/);
    assert.match(preview, /\(\d+ more\)\n/);
  });

  it('recognises the usual shapes of errors, and not a report of none', () => {
    for (const line of [
      'error: could not compile `fdref`',
      'FAIL src/a.test.ts',
      'Traceback (most recent call last):',
      "thread 'main' panicked at src/main.rs:2:5",
      'java.lang.NullPointerException',
      'npm ERR! code ELIFECYCLE',
      'a.ts:3:14: error TS2322',
      '  1 failing',
      'Build FAILED.',
    ])
      assert.ok(looksLikeError(line), line);
    const output = summarize('Found 0 errors\nno failures\nall good\n', 1000);
    assert.deepEqual(output.errors, []);
  });

  it('holds a bounded amount whatever the output size', () => {
    const builder = new OutputPreviewBuilder(previewLimits(2000));
    const piece = `${'x'.repeat(5000)}\n`.repeat(20);
    for (let i = 0; i < 200; i++) builder.push(piece);
    const held = builder as unknown as { head: string; tail: string; line: string };
    assert.ok(held.head.length <= 1000 && held.tail.length <= 2 * 1000 + piece.length && held.line.length <= 300);
    assert.equal(builder.finish().chars, piece.length * 200);
  });

  it('never exceeds its budget and always starts with the handle (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('\n', 'error: x\n', 'FAIL\n', '\r\n', '😀')), {
          maxLength: 300,
        }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.integer({ min: HANDLE.length + 1, max: 3000 }),
        fc.string({ maxLength: 400 }),
        (pieces, cuts, budget, hints) => {
          const text = pieces.join('');
          const output = summarize(text, budget, cuts);
          assert.equal(output.chars, text.length);
          const preview = renderOutputPreview({ handle: HANDLE, hints, output }, budget);
          assert.ok(preview.length <= budget, `${preview.length} > ${budget}`);
          assert.ok(preview.startsWith(HANDLE));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('counts lines as the store does and numbers them as an editor does (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', '\n', 'error', ' '), { maxLength: 200 }),
        fc.array(fc.nat()),
        (parts, cuts) => {
          const text = parts.join('');
          const output = summarize(text, 5000, cuts);
          const lines = text.split('\n');
          const expected = text === '' ? 0 : text.endsWith('\n') ? lines.length - 1 : lines.length;
          assert.equal(output.lines, expected);
          // A text seen again is kept once, at its first line.
          const errorLines = lines.flatMap((line, i) =>
            looksLikeError(line) && lines.indexOf(line) === i ? [i + 1] : [],
          );
          assert.deepEqual(
            output.errors.map((e) => e.line),
            errorLines.slice(0, previewLimits(5000).errorLines),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('shows warnings too, each text once with how often it was seen, and keeps room for errors', () => {
    const lines: string[] = [];
    for (let n = 1; n <= 3000; n++) {
      if (n === 2500) lines.push('src/a.ts:9:1: error TS2304: Cannot find name x');
      else if (n % 10 === 0) lines.push(`npm WARN deprecated left-pad@1.0.${n}: use String.prototype.padStart`);
      else if (n % 7 === 0) lines.push('warning: unused variable `y`');
      else lines.push(`step ${n}`);
    }
    const text = lines.join('\n') + '\n';
    const output = summarize(text, 4000, [1000, 20000]);
    const limit = previewLimits(4000).errorLines;
    assert.deepEqual(output.errors[0], { line: 7, text: 'warning: unused variable `y`', warning: true, repeats: 386 });
    assert.ok(
      output.errors.some((e) => e.line === 2500 && e.warning === undefined),
      'the error after many warnings',
    );
    assert.equal(output.errors.filter((e) => e.warning === true).length, limit);
    const preview = renderOutputPreview({ handle: HANDLE, hints: '', output }, 4000);
    assert.ok(preview.length <= 4000);
    assert.match(preview, /lines that look like errors or warnings \(line: text\) ---\n/);
    assert.match(preview, /\n7: warning: unused variable `y` \(seen 386 times\)\n/);
    assert.match(preview, /\n2500: src\/a\.ts:9:1: error TS2304: Cannot find name x\n/);
    const section = preview.slice(preview.indexOf('lines that look like'), preview.indexOf('characters not shown'));
    assert.equal(section.split('unused variable `y`').length - 1, 1, 'a repeated warning is listed once');
  });

  it('chooses errors before warnings when not all fit', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `warning: number ${i + 1} ${'.'.repeat(60)}`);
    lines.push('Error: the one failure');
    const output = summarize(lines.join('\n'), 1200);
    const preview = renderOutputPreview({ handle: HANDLE, hints: '', output }, 1200);
    assert.match(preview, /\n41: Error: the one failure\n/);
    assert.match(preview, /\(\d+ more\)\n/);
  });

  it('recognises warnings, and not a report of none', () => {
    for (const line of ['warning: unused import', 'npm WARN deprecated x', '[WARN] slow test', 'Warnings: 3'])
      assert.ok(looksLikeWarning(line), line);
    assert.deepEqual(summarize('0 warnings\nFound 0 errors, 0 warnings\nok\n', 1000).errors, []);
  });

  it('shows the failure in the middle of a long `npm test` log with its line number', () => {
    const lines = ['> fdref@1.0.0 test', '> jest --verbose', ''];
    const suite = (n: number): void => {
      lines.push(`PASS src/store/part${n}.test.ts`);
      for (let t = 1; t <= 8; t++) lines.push(`  ✓ keeps descriptor ${n}.${t} whole (${(n * t) % 50} ms)`);
    };
    for (let n = 1; n <= 150; n++) suite(n);
    const failure = lines.length + 1;
    lines.push('FAIL src/store/pages.test.ts', '  ✕ reads a page past the end (12 ms)');
    for (let n = 151; n <= 300; n++) suite(n);
    lines.push('', 'Test Suites: 1 failed, 300 passed, 301 total', 'Tests:       1 failed, 2400 passed, 2401 total');
    const log = lines.join('\n') + '\n';
    const output = summarize(log, 8000, [4096, 65536]);
    const preview = renderOutputPreview({ handle: HANDLE, hints: 'Read it with read_fd(fd="fd:7").', output }, 8000);
    assert.ok(preview.startsWith(HANDLE + '\n'));
    assert.ok(preview.length <= 8000);
    assert.ok(!preview.includes('PASS src/store/part75.test.ts'), 'the middle is not shown');
    assert.match(preview, new RegExp(`\n${failure}: FAIL src/store/pages\\.test\\.ts\n`));
    assert.match(preview, new RegExp(`\n${failure + 1}: {3}✕ reads a page past the end \\(12 ms\\)\n`));
    assert.ok(preview.includes('> jest --verbose\n'), 'the head');
    assert.ok(preview.endsWith('Tests:       1 failed, 2400 passed, 2401 total\n'), 'the tail');
    assert.ok(preview.indexOf('> jest') < preview.indexOf(`${failure}: FAIL`), 'the head comes before the failure');
    assert.ok(preview.indexOf(`${failure}: FAIL`) < preview.indexOf('Test Suites:'), 'and the failure before the tail');
  });
});
