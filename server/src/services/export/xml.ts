/**
 * Text in XML (KML): the five special characters escaped, and the characters XML 1.0 does
 * not allow at all (most control characters, lone surrogates, U+FFFE/U+FFFF) replaced with
 * U+FFFD, so the document stays well-formed whatever a cell holds.
 */
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}
