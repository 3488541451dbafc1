/**
 * The form's layout (issue 34): the QGIS drag-and-drop tabs and groups as the server describes
 * them (`FormItem`), with what the form shows of them: only items that hold a visible field.
 */
import type { FormField, FormItem, FormLayer } from '@contract/forms';

/** Whether the field is shown in the form. */
export const isShown = (field: FormField) => !field.hidden && field.widget.type !== 'hidden';

/** The layout's items with hidden fields and empty tabs and groups left out. */
export function visibleItems(layer: FormLayer): FormItem[] {
  const fields = new Map(layer.fields.map((field) => [field.name, field]));
  const keep = (items: readonly FormItem[]): FormItem[] =>
    items.flatMap((item) => {
      if (item.kind === 'field') {
        const field = item.field ? fields.get(item.field) : undefined;
        return field && isShown(field) ? [item] : [];
      }
      const inner = keep(item.items ?? []);
      return inner.length > 0 ? [{ ...item, items: inner }] : [];
    });
  return keep(layer.items);
}

/** The field names an item holds, in order. */
export function fieldsOf(item: FormItem): string[] {
  if (item.kind === 'field') return item.field ? [item.field] : [];
  return (item.items ?? []).flatMap(fieldsOf);
}

/** The index of the first tab holding one of `names`, or -1. */
export function firstTabWith(tabs: readonly FormItem[], names: readonly string[]): number {
  return tabs.findIndex((tab) => fieldsOf(tab).some((name) => names.includes(name)));
}
