import fc from 'fast-check';

/** Any UTF-16 code unit, lone surrogates included. */
export const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** Text that hits the paging edge cases: newlines, CRLF, long lines, emoji, any code unit. */
export const awkwardText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\n',
        '\r\n',
        '\r',
        '😀',
        'é',
        '\u{1F469}\u200D\u{1F4BB}',
        ' ',
        'x',
        'ab',
        '<',
        '&',
        ']]>',
        '\t',
        '\u0000',
      ),
      fc.string({ unit: codeUnit, maxLength: 4 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
    ),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));
