/**
 * The XML the model sees. Attribute values are always escaped; element content is written so that a
 * standard XML parser gives it back exactly: plain text when it holds nothing special, CDATA sections
 * when it holds `<`, `>` or `&` (a `]]>` inside is split across two sections), and `&#13;` for each
 * carriage return, which a parser would otherwise turn into a line feed. Characters that XML 1.0 cannot
 * carry at all (most C0 controls, lone surrogates, U+FFFE, U+FFFF) are shown as U+FFFD and counted in
 * the element's `replaced_chars` attribute; the stored content, and what `fd_to_file` writes, keep them.
 */

export type AttributeValue = string | number | boolean | undefined;
export type Attributes = Record<string, AttributeValue>;

/**
 * Any character that is not written as it is: `<`, `>`, `&`, `\r`, C0 controls other than tab and line feed,
 * surrogates (a pair is kept, a lone one replaced), U+FFFE and U+FFFF. Written as what may stay (a negated class),
 * which V8 tests about a fifth faster than the list of what may not; every page read runs it over the whole page.
 */
const SPECIAL_IN_TEXT = /[^\t\n\x20-\x25\x27-\x3B\x3D\x3F-\uD7FF\uE000-\uFFFD]/;
const NOT_XML_CHAR =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Escapes a value for a double-quoted attribute, keeping whitespace characters as they are. */
export function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIAL.test(value)) return value;
  let out = value.replace(/[&<>"\t\n\r]/g, (c) => ATTRIBUTE_ESCAPES[c] as string);
  if (SPECIAL_IN_TEXT.test(out)) out = out.replace(NOT_XML_CHAR, '\uFFFD');
  return out;
}

const ATTRIBUTE_SPECIAL = /[&<>"\t\n\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

export interface TextForXml {
  xml: string;
  /** Characters that XML cannot carry, shown as U+FFFD. */
  replaced: number;
}

/** Writes `text` as element content that parses back to exactly `text` (see the module comment). */
export function xmlText(text: string): TextForXml {
  if (!SPECIAL_IN_TEXT.test(text)) return { xml: text, replaced: 0 };
  let replaced = 0;
  const safe = text.replace(NOT_XML_CHAR, () => {
    replaced++;
    return '\uFFFD';
  });
  const needsCdata = /[<>&]/.test(safe);
  const pieces = safe.split('\r');
  const written = pieces.map((piece) => (needsCdata && piece.length > 0 ? cdata(piece) : piece));
  return { xml: written.join('&#13;'), replaced };
}

function cdata(text: string): string {
  return '<![CDATA[' + text.split(']]>').join(']]]]><![CDATA[>') + ']]>';
}

/** `<name a="1" b="x"` (no closing bracket); undefined attributes are left out. */
function openTag(name: string, attributes: Attributes): string {
  let tag = '<' + name;
  // for-in rather than Object.entries, which builds an array per attribute: a page read writes seven.
  for (const key in attributes) tag += attribute(key, attributes[key]);
  return tag;
}

/** ` key="value"`, escaped; nothing for an undefined value. */
function attribute(key: string, value: AttributeValue): string {
  if (value === undefined) return '';
  return ' ' + key + '="' + (typeof value === 'string' ? escapeAttribute(value) : String(value)) + '"';
}

/** An element with no content: `<name a="1"/>`. */
export function emptyElement(name: string, attributes: Attributes): string {
  return openTag(name, attributes) + '/>';
}

/** An element whose content is `text`, written exactly (see `xmlText`). */
export function textElement(name: string, attributes: Attributes, text: string): string {
  const { xml, replaced } = xmlText(text);
  // Appended rather than spread into a copy of `attributes` (see `copyAttributes` in selection.ts for why).
  const tag = openTag(name, attributes) + (replaced > 0 ? attribute('replaced_chars', replaced) : '');
  return tag + '>' + xml + '</' + name + '>';
}

/** An element holding already-written child elements. */
export function parentElement(name: string, attributes: Attributes, children: readonly string[]): string {
  return openTag(name, attributes) + '>' + children.join('') + '</' + name + '>';
}
