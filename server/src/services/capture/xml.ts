/**
 * A small XML reader for QGIS project files: elements with attributes, text (entities and
 * character references decoded, CDATA kept), comments, processing instructions and the
 * DOCTYPE skipped. No namespaces, no external entities (nothing is ever fetched). Input is
 * bounded by the caller (schemas/forms.ts MAX_QGIS_PROJECT_BYTES); nesting is bounded here.
 * Malformed input is an XmlError.
 */

export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (its direct text and CDATA, concatenated). */
  text: string;
}

/** Deepest nesting accepted. */
const MAX_DEPTH = 256;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeCodePoint(parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return safeCodePoint(parseInt(ref.slice(1), 10), whole);
    return ENTITIES[ref] ?? whole;
  });
}

function safeCodePoint(code: number, whole: string): string {
  return Number.isInteger(code) && code >= 0 && code <= 0x10ffff
    ? String.fromCodePoint(code)
    : whole;
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const ATTRIBUTE = /\s*([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)')/y;

/** Parses an XML document; returns its root element. */
export function parseXml(source: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let at = 0;
  const n = source.length;
  const fail = (what: string): never => {
    throw new XmlError(`${what} at character ${at}`);
  };
  const skipPast = (marker: string, what: string) => {
    const end = source.indexOf(marker, at);
    if (end < 0) fail(`Unterminated ${what}`);
    at = end + marker.length;
  };
  while (at < n) {
    const lt = source.indexOf('<', at);
    if (lt < 0) {
      if (source.slice(at).trim() !== '' && stack.length === 0) fail('Text outside the root');
      if (stack.length > 0) stack[stack.length - 1]!.text += decode(source.slice(at));
      break;
    }
    if (lt > at && stack.length > 0) stack[stack.length - 1]!.text += decode(source.slice(at, lt));
    at = lt;
    if (source.startsWith('<!--', at)) skipPast('-->', 'comment');
    else if (source.startsWith('<![CDATA[', at)) {
      const end = source.indexOf(']]>', at);
      if (end < 0) fail('Unterminated CDATA');
      if (stack.length > 0) stack[stack.length - 1]!.text += source.slice(at + 9, end);
      at = end + 3;
    } else if (source.startsWith('<?', at)) skipPast('?>', 'processing instruction');
    else if (source.startsWith('<!', at)) {
      // DOCTYPE (QGIS writes `<!DOCTYPE qgis PUBLIC '…' 'SYSTEM'>`); an internal subset is skipped.
      const bracket = source.indexOf('[', at);
      const close = source.indexOf('>', at);
      if (close < 0) fail('Unterminated declaration');
      if (bracket >= 0 && bracket < close) skipPast(']>', 'declaration');
      else at = close + 1;
    } else if (source.startsWith('</', at)) {
      at += 2;
      NAME.lastIndex = at;
      const name = NAME.exec(source)?.[0] ?? fail('Invalid closing tag');
      at += name.length;
      while (at < n && /\s/.test(source[at]!)) at++;
      if (source[at] !== '>') fail('Invalid closing tag');
      at++;
      const open = stack.pop();
      if (!open || open.name !== name) fail(`Unexpected </${name}>`);
    } else {
      at++;
      NAME.lastIndex = at;
      const name = NAME.exec(source)?.[0] ?? fail('Invalid tag');
      at += name.length;
      const element: XmlElement = { name, attributes: {}, children: [], text: '' };
      for (;;) {
        ATTRIBUTE.lastIndex = at;
        const match = ATTRIBUTE.exec(source);
        if (!match) break;
        element.attributes[match[1]!] = decode(match[3] ?? match[4] ?? '');
        at = ATTRIBUTE.lastIndex;
      }
      while (at < n && /\s/.test(source[at]!)) at++;
      let selfClosing = false;
      if (source.startsWith('/>', at)) {
        selfClosing = true;
        at += 2;
      } else if (source[at] === '>') at++;
      else fail(`Invalid <${name}>`);
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(element);
      else if (root) fail('A second root element');
      else root = element;
      if (!selfClosing) {
        if (stack.length >= MAX_DEPTH) fail('Elements nested too deeply');
        stack.push(element);
      }
    }
  }
  if (stack.length > 0) throw new XmlError(`Unclosed <${stack[stack.length - 1]!.name}>`);
  if (!root) throw new XmlError('No root element');
  return root;
}

/** The first child named `name`, or undefined. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

/** Every child named `name`. */
export function children(element: XmlElement | undefined, name: string): XmlElement[] {
  return element ? element.children.filter((c) => c.name === name) : [];
}

/** The element's text, trimmed ('' when absent). */
export function textOf(element: XmlElement | undefined): string {
  return element?.text.trim() ?? '';
}
