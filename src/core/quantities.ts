/**
 * How fdref counts and writes sizes: lines, bytes, UTF-8 lengths. A leaf module, so every part of the core
 * (entities' error messages, descriptions, the file system) can use it without depending on another.
 */

/** `1 line`, `12 lines`. */
export function lineCount(lines: number): string {
  return `${lines} ${lines === 1 ? 'line' : 'lines'}`;
}

/**
 * `1,234,567`: a whole number grouped as `toLocaleString('en-US')` writes it, without Intl (whose first use maps
 * about 7 MB of ICU data into the process: the command wrapper's peak memory, see bench/cli.mjs).
 */
export function groupedCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `512 B`, `1.2 KB`, `3.4 MB`. */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

/** UTF-8 bytes of a string, without allocating them. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
