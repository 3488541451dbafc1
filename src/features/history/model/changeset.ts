/**
 * The row-level changes of one GeoPackage in one version (spec 001 §2 "File version detail",
 * §3 "Changeset entry"): entries grouped into one table per database table, a column per field.
 */
import type {
  ChangeType,
  ChangesetEntry,
  ColumnChange,
  TableChangeCounts,
} from '@contract/changesets';

export type { ChangeType, ChangesetEntry };

export interface ChangesetRow {
  type: ChangeType;
  /** Field name → the text shown; fields an entry does not name are absent. */
  cells: Record<string, string>;
}

export interface ChangesetTable {
  name: string;
  /** Field names in the order they first appear. */
  columns: string[];
  rows: ChangesetRow[];
}

/** Rows per page of a changeset table, its scroll height (spec 001 §9). */
export const CHANGESET_ROWS_PER_PAGE = 10;
export const CHANGESET_SCROLL_HEIGHT = 400;

/** GeoPackage bookkeeping table whose changes are never shown (spec 001 §2). */
export const HIDDEN_TABLE = 'gpkg_contents';

export const NO_CHANGESET_FOR_LAYER = 'No changeset for current layer';
export const DISPLAY_CHANGESET_FALLBACK = 'Failed to display changeset of file';

/** Documentation page behind 'Changes cannot be calculated' (docs address from /config). */
export const SYNCHRONISATION_DOCS_PATH = '/manage/synchronisation';

export function synchronisationDocsUrl(docsUrl: string): string {
  return `${docsUrl.replace(/\/+$/, '')}${SYNCHRONISATION_DOCS_PATH}`;
}

/** Text of a value: 'N/A' when the entry has none, 'NULL' for SQL NULL. */
export function formatChangeValue(value: ColumnChange['old']): string {
  if (value === undefined) return 'N/A';
  if (value === null) return 'NULL';
  return String(value);
}

export const UPDATE_ARROW = '→';

/** What a cell shows: the new value of an insert, the old of a delete, 'old → new' of an update. */
export function cellText(type: ChangeType, value: Pick<ColumnChange, 'old' | 'new'>): string {
  if (type === 'insert') return formatChangeValue(value.new);
  if (type === 'delete') return formatChangeValue(value.old);
  if (!('new' in value)) return formatChangeValue(value.old);
  return `${formatChangeValue(value.old)} ${UPDATE_ARROW} ${formatChangeValue(value.new)}`;
}

/** Summary rows without gpkg_contents (spec 001 §2). */
export function visibleSummary(summary: readonly TableChangeCounts[] | undefined) {
  return (summary ?? []).filter((row) => row.table !== HIDDEN_TABLE);
}

/**
 * One table per changed database table: the tables of the summary first (in its order, so a
 * layer the summary names but with no entries still shows), then any other table in the order
 * its entries come. gpkg_contents is left out.
 */
export function changesetTables(
  entries: readonly ChangesetEntry[],
  summary?: readonly TableChangeCounts[],
): ChangesetTable[] {
  const tables = new Map<string, ChangesetTable>();
  const table = (name: string) => {
    let found = tables.get(name);
    if (!found) {
      found = { name, columns: [], rows: [] };
      tables.set(name, found);
    }
    return found;
  };
  for (const row of visibleSummary(summary)) table(row.table);
  for (const entry of entries) {
    if (entry.table === HIDDEN_TABLE) continue;
    const target = table(entry.table);
    const cells: Record<string, string> = {};
    for (const value of entry.changes) {
      if (!target.columns.includes(value.name)) target.columns.push(value.name);
      cells[value.name] = cellText(entry.type, value);
    }
    target.rows.push({ type: entry.type, cells });
  }
  return [...tables.values()];
}
