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
  // Compared as text, so tabs and spaces are never taken for each other.
  const shared = lines
    .filter((line) => !BLANK.test(line))
    .map(leadingWhitespace)
    .reduce<string | undefined>((common, own) => (common === undefined ? own : commonPrefix(common, own)), undefined);
  return lines
    .map((line, i) =>
      BLANK.test(line) ? line.replace(LEADING, '') : (i === 0 ? '' : indent) + line.slice(shared?.length ?? 0),
    )
    .join('');
}

const LEADING = /^[ \t]*/;
const BLANK = /^[ \t]*\r?\n?$/;

function leadingWhitespace(line: string): string {
  return LEADING.exec(line)?.[0] ?? '';
}

function commonPrefix(a: string, b: string): string {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return a.slice(0, n);
}
