import { SaxesParser } from 'saxes';

/** An element as a conforming XML parser sees it. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** The element's own text (text and CDATA), children's text excluded. */
  text: string;
  children: XmlElement[];
}

/** Parses `xml` with a strict, conforming XML parser; throws on anything that is not well-formed. */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: false });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let error: Error | undefined;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: { ...(tag.attributes as Record<string, string>) },
      text: '',
      children: [],
    };
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (text: string) => {
    const current = stack[stack.length - 1];
    if (current) current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.write(xml).close();
  if (error) throw error;
  if (!root) throw new Error('no root element');
  return root;
}

/** The first child element called `name`. */
export function child(element: XmlElement, name: string): XmlElement {
  const found = element.children.find((c) => c.name === name);
  if (!found) throw new Error(`<${element.name}> has no <${name}>`);
  return found;
}
