/**
 * An element and its children as text with sorted attributes and classes, so two components
 * can be compared by what they render. Ids are left out: Mantine's are random.
 */
export function normalizedHtml(node: Element): string {
  const attributes = [...node.attributes]
    .filter((attribute) => attribute.name !== 'id')
    .map((attribute) =>
      attribute.name === 'class'
        ? `class="${attribute.value.split(/\s+/).sort().join(' ')}"`
        : `${attribute.name}="${attribute.value}"`,
    )
    .sort();
  const children = [...node.childNodes].map((child) =>
    child.nodeType === Node.ELEMENT_NODE
      ? normalizedHtml(child as Element)
      : (child.textContent ?? ''),
  );
  return `<${node.tagName.toLowerCase()} ${attributes.join(' ')}>${children.join('')}</>`;
}
