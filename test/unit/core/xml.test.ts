import assert from 'node:assert/strict';
import fc from 'fast-check';
import { emptyElement, parentElement, textElement } from '../../../src/core/xml';
import { awkwardText } from '../support/arbitraries';
import { parseXml } from '../support/xml';

const NOT_XML_CHAR =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

describe('xml', () => {
  it('gives back any text exactly through a conforming parser, XML-forbidden characters shown as U+FFFD', () => {
    fc.assert(
      fc.property(awkwardText, awkwardText, (text, attribute) => {
        const element = parseXml(textElement('fd_content', { fd: 'fd:1', note: attribute }, text));
        const forbidden = text.match(NOT_XML_CHAR)?.length ?? 0;
        assert.equal(element.text, text.replace(NOT_XML_CHAR, '\uFFFD'));
        assert.equal(element.attributes['note'], attribute.replace(NOT_XML_CHAR, '\uFFFD'));
        assert.equal(element.attributes['replaced_chars'], forbidden > 0 ? String(forbidden) : undefined);
      }),
      { numRuns: 1000 },
    );
  });

  it('writes every UTF-16 code unit as it is unless it is markup, a carriage return or not an XML character', () => {
    const special = /[<>&\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
    for (let code = 0; code <= 0xffff; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      const plain = textElement('x', {}, text) === `<x>${text}</x>`;
      assert.equal(plain, !special.test(text), `U+${code.toString(16).padStart(4, '0')}`);
    }
  });

  it('keeps plain text plain and uses CDATA only when the text has markup characters', () => {
    assert.equal(textElement('a', {}, 'hello\nworld'), '<a>hello\nworld</a>');
    assert.equal(textElement('a', {}, 'x < y'), '<a><![CDATA[x < y]]></a>');
  });

  it('cannot be broken out of by content that holds closing tags or CDATA ends', () => {
    const nasty = '</fd_content><fd_error type="x"/>]]><![CDATA[ & ]]]]>';
    const element = parseXml(textElement('fd_content', {}, nasty));
    assert.equal(element.name, 'fd_content');
    assert.equal(element.children.length, 0);
    assert.equal(element.text, nasty);
  });

  it('keeps carriage returns, which parsers would otherwise normalise', () => {
    assert.equal(parseXml(textElement('a', {}, 'x\r\ny\r')).text, 'x\r\ny\r');
    assert.equal(parseXml(textElement('a', {}, '<b>\r\n</b>\r\n')).text, '<b>\r\n</b>\r\n');
  });

  it('escapes attribute values and leaves undefined ones out', () => {
    const xml = emptyElement('ref', { id: 'a"b<c>&\n', language: undefined, n: 3 });
    assert.equal(xml, '<ref id="a&quot;b&lt;c&gt;&amp;&#10;" n="3"/>');
    assert.deepEqual(parseXml(xml).attributes, { id: 'a"b<c>&\n', n: '3' });
  });

  it('nests already-written children', () => {
    const xml = parentElement('list', { count: 1 }, [emptyElement('item', { id: 'x' })]);
    assert.equal(parseXml(xml).children[0]?.attributes['id'], 'x');
  });
});
