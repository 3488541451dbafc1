import {
  IconDatabase,
  IconFile,
  IconFileSpreadsheet,
  IconFileTypeSql,
  IconFileZip,
  IconFolder,
  IconGridPattern,
  IconMap,
  IconPhoto,
  type Icon,
} from '@tabler/icons-react';
import { fileIconKind, type FileEntry, type FileIconKind } from '../model/files';

const ICONS: Record<FileIconKind, Icon> = {
  folder: IconFolder,
  geopackage: IconDatabase,
  sql: IconFileTypeSql,
  qgis: IconMap,
  archive: IconFileZip,
  raster: IconGridPattern,
  spreadsheet: IconFileSpreadsheet,
  photo: IconPhoto,
  generic: IconFile,
};

/** The file-type icon of a file browser entry (spec 001 §2). */
export function FileIcon({ entry }: { entry: Pick<FileEntry, 'type' | 'name'> }) {
  const kind = fileIconKind(entry);
  const Component = ICONS[kind];
  return (
    <Component
      size={18}
      stroke={1.5}
      aria-hidden
      data-icon={kind}
      color={kind === 'folder' ? 'var(--mantine-color-yellow-7)' : 'var(--mantine-color-blue-7)'}
    />
  );
}
