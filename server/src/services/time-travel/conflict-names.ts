/**
 * The names the Mergin Maps clients give conflict files (their utils.py:
 * conflicted_copy_file_name, edit_conflict_file_name), read back:
 *
 * - `<dir>/<stem> (conflicted copy, <user> v<N>)<ext>`: `<ext>` is every suffix of the
 *   original's name (`a.tar.gz` → stem `a`, ext `.tar.gz`), with `~` appended for QGIS
 *   project files, so the original is `<dir>/<stem><ext without that ~>`;
 * - `<dir>/<stem> (edit conflict, <user> v<N>).json`: the original's suffixes are not kept;
 *   its original is the GeoPackage / SQLite file of that folder whose name less every suffix
 *   is `<stem>` (originalOfEditConflict).
 */
import { isQgisProjectFile } from '../../lib/paths';
import { isGeoPackage, isVersionedFile } from '../../schemas/protocol';

export interface ConflictName {
  kind: 'conflicted_copy' | 'edit_conflict';
  /** The folder with its trailing slash ('' at the root). */
  dir: string;
  stem: string;
  user: string;
  version: number;
  /** conflicted_copy: the original's path; edit_conflict: null (see originalOfEditConflict). */
  original: string | null;
}

const COPY = /^(.+) \(conflicted copy, ([^()/]*) v(-?\d+)\)(\.[^/]*)?$/;
const EDIT = /^(.+) \(edit conflict, ([^()/]*) v(-?\d+)\)\.json$/;

function split(path: string): [string, string] {
  const at = path.lastIndexOf('/');
  return [path.slice(0, at + 1), path.slice(at + 1)];
}

/** The conflict file `path` names, or null when it is not one. */
export function parseConflictName(path: string): ConflictName | null {
  const [dir, name] = split(path);
  const edit = EDIT.exec(name);
  if (edit) {
    return {
      kind: 'edit_conflict',
      dir,
      stem: edit[1]!,
      user: edit[2]!,
      version: Number(edit[3]),
      original: null,
    };
  }
  const copy = COPY.exec(name);
  if (!copy) return null;
  let ext = copy[4] ?? '';
  if (ext.endsWith('~') && isQgisProjectFile(ext.slice(0, -1))) ext = ext.slice(0, -1);
  return {
    kind: 'conflicted_copy',
    dir,
    stem: copy[1]!,
    user: copy[2]!,
    version: Number(copy[3]),
    original: `${dir}${copy[1]!}${ext}`,
  };
}

/** A file name less every suffix (Python's Path(name).suffixes, as the clients strip them). */
function stemOf(name: string): string {
  const lead = name.startsWith('.') ? 1 : 0;
  const dot = name.indexOf('.', lead);
  return dot < 0 ? name : name.slice(0, dot);
}

/**
 * The GeoPackage / SQLite file among `paths` an edit-conflict file refers to (a .gpkg
 * before others when several match), or null.
 */
export function originalOfEditConflict(
  conflict: Pick<ConflictName, 'dir' | 'stem'>,
  paths: Iterable<string>,
): string | null {
  const found: string[] = [];
  for (const candidate of paths) {
    const [dir, name] = split(candidate);
    if (dir === conflict.dir && isVersionedFile(candidate) && stemOf(name) === conflict.stem) {
      found.push(candidate);
    }
  }
  found.sort((a, b) => Number(!isGeoPackage(a)) - Number(!isGeoPackage(b)) || (a < b ? -1 : 1));
  return found[0] ?? null;
}
