/**
 * Files of a drop or a file input. Dropped folders are read through webkitGetAsEntry, each
 * directory recursively, calling readEntries until it returns an empty batch (browsers return
 * at most 100 entries per call). Entries must be taken synchronously in the drop event: the
 * DataTransfer is emptied once the handler returns.
 */
import type { ChosenFile } from '../../model/selection';

function chosen(file: File, relativePath: string): ChosenFile {
  return { relativePath, file, size: file.size, lastModified: file.lastModified };
}

/** Files of an <input type="file"> (folder pickers give each file its webkitRelativePath). */
export function filesOfInput(list: FileList | readonly File[]): ChosenFile[] {
  return Array.from(list, (file) => chosen(file, file.webkitRelativePath || file.name));
}

function readBatch(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function readEntry(entry: FileSystemEntry, into: ChosenFile[]): Promise<void> {
  const path = entry.fullPath.replace(/^\/+/, '') || entry.name;
  if (entry.isFile) {
    into.push(chosen(await fileOf(entry as FileSystemFileEntry), path));
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await readBatch(reader);
    if (batch.length === 0) break;
    for (const child of batch) await readEntry(child, into);
  }
}

export interface DroppedItems {
  /** Kinds of the items ('file' or 'string'), for the refusal rules. */
  kinds: string[];
  /** Reads the files (call only when the drop is accepted). */
  read(): Promise<ChosenFile[]>;
}

/** Takes the entries of a drop synchronously; reading them happens later. */
export function takeDrop(transfer: DataTransfer): DroppedItems {
  const items = Array.from(transfer.items ?? []);
  const kinds = items.map((item) => item.kind);
  const sources = items
    .filter((item) => item.kind === 'file')
    .map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  if (items.length === 0 && transfer.files?.length) {
    for (const file of Array.from(transfer.files)) {
      kinds.push('file');
      sources.push({ entry: null, file });
    }
  }
  return {
    kinds,
    async read() {
      const files: ChosenFile[] = [];
      for (const source of sources) {
        if (source.entry) await readEntry(source.entry, files);
        else if (source.file) files.push(chosen(source.file, source.file.name));
      }
      return files;
    },
  };
}
