/**
 * A ref's text fitted to where it is inserted, as Copilot's "Insert at Cursor" does: the indentation all its lines
 * share is taken off, and every line after the first gets the indentation of the line the cursor is on, so a
 * Python block inserted at column 5 stays a valid block. The first line goes where the cursor is. Blank lines stay
 * empty (no trailing whitespace); a one-line text is inserted as it is. Line ends are kept as they are.
 */
export function reindentForInsert(text: string, lineBeforeCursor: string): string {
  const lines = text.split(/(?<=\n)/);
  if (lines.length < 2) return text;
  const indent = leadingWhitespace(lineBeforeCursor);
  const shared = sharedIndent(lines);
  return lines
    .map((line, index) => {
      if (isBlank(line)) return lineEnd(line);
      const body = line.slice(shared.length);
      return index === 0 ? body : indent + body;
    })
    .join('');
}

/** The longest whitespace prefix every non-blank line starts with (compared as text: tabs and spaces are not mixed up). */
function sharedIndent(lines: readonly string[]): string {
  let shared: string | undefined;
  for (const line of lines) {
    if (isBlank(line)) continue;
    const own = leadingWhitespace(line);
    if (shared === undefined) shared = own;
    else {
      let n = 0;
      while (n < shared.length && n < own.length && shared[n] === own[n]) n++;
      shared = shared.slice(0, n);
    }
    if (shared === '') return '';
  }
  return shared ?? '';
}

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

function isBlank(line: string): boolean {
  return /^[ \t]*\r?\n?$/.test(line);
}

/** The line end of a line (`\n`, `\r\n`, or none for the last line). */
function lineEnd(line: string): string {
  return line.endsWith('\r\n') ? '\r\n' : line.endsWith('\n') ? '\n' : '';
}
