import { describe, expect, it } from 'vitest';
import { child, parseXml, XmlError } from './xml';

describe('parseXml', () => {
  it('reads elements, attributes, entities, CDATA and skips the DOCTYPE and comments', () => {
    const root = parseXml(
      `<?xml version="1.0"?><!DOCTYPE qgis PUBLIC 'http://mrcc.com/qgis.dtd' 'SYSTEM'>
       <qgis a="1 &amp; 2"><!-- note --><c exp="&quot;h&quot; &lt; 100" x='&#65;'/>
       <t>x &gt; y<![CDATA[ <raw> ]]></t></qgis>`,
    );
    expect(root.name).toBe('qgis');
    expect(root.attributes.a).toBe('1 & 2');
    expect(child(root, 'c')!.attributes).toEqual({ exp: '"h" < 100', x: 'A' });
    expect(child(root, 't')!.text).toBe('x > y <raw> ');
  });

  it('refuses malformed documents', () => {
    for (const bad of ['', '<a>', '<a></b>', '<a/><b/>', '<a x=1/>', '<a><!-- x</a>']) {
      expect(() => parseXml(bad), bad).toThrow(XmlError);
    }
  });

  it('bounds nesting', () => {
    expect(() => parseXml('<a>'.repeat(300) + '</a>'.repeat(300))).toThrow(/nested too deeply/);
  });
});
