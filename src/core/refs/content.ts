/** Turning the raw text between a ref's tags into the content a ref carries. */

export interface RefContent {
  content: string;
  language?: string;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** Whether `line` (no `\n`, maybe a trailing `\r`) closes a fence of `len` or more `ch` characters. */
function closesFence(line: string, ch: number, len: number): boolean {
  let i = 0;
  while (i < line.length && i < 4 && line.charCodeAt(i) === 32) i++;
  if (i > 3) return false;
  const runStart = i;
  while (i < line.length && line.charCodeAt(i) === ch) i++;
  if (i - runStart < len) return false;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9 || line.charCodeAt(i) === 13)) i++;
  return i === line.length;
}

/**
 * Drops one newline (`\n` or `\r\n`) at each end of `raw` (the text between the tags, nested tags
 * already removed); then, if what remains is nothing but one fenced code block (surrounding
 * whitespace aside), returns the code inside it and the first word of its info string as `language`
 * (the property is absent when the info string is empty).
 */
export function refContent(raw: string): RefContent {
  let s = raw;
  if (s.startsWith('\r\n')) s = s.slice(2);
  else if (s.startsWith('\n')) s = s.slice(1);
  if (s.endsWith('\r\n')) s = s.slice(0, -2);
  else if (s.endsWith('\n')) s = s.slice(0, -1);

  let a = 0;
  while (a < s.length && isBlank(s.charCodeAt(a))) a++;
  const ch = s.charCodeAt(a);
  if (ch !== 96 && ch !== 126) return { content: s };
  let b = s.length;
  while (b > a && isBlank(s.charCodeAt(b - 1))) b--;

  let runEnd = a;
  while (runEnd < b && s.charCodeAt(runEnd) === ch) runEnd++;
  const len = runEnd - a;
  if (len < 3) return { content: s };
  const openEnd = s.indexOf('\n', runEnd);
  if (openEnd === -1 || openEnd >= b) return { content: s };
  let info = s.slice(runEnd, openEnd);
  if (ch === 96 && info.includes('`')) return { content: s };

  const lastStart = s.lastIndexOf('\n', b - 1) + 1;
  if (!closesFence(s.slice(lastStart, b), ch, len)) return { content: s };
  // The block must end at that last line, not earlier: no line in between may close it.
  for (let lineStart = openEnd + 1; lineStart < lastStart;) {
    const lineEnd = s.indexOf('\n', lineStart);
    if (closesFence(s.slice(lineStart, lineEnd), ch, len)) return { content: s };
    lineStart = lineEnd + 1;
  }

  let code = lastStart - 1 > openEnd ? s.slice(openEnd + 1, lastStart - 1) : '';
  if (code.endsWith('\r')) code = code.slice(0, -1);
  info = info.trim();
  if (info === '') return { content: code };
  const language = info.split(/\s+/)[0] ?? info;
  return { content: code, language };
}
