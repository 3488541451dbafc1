/**
 * File rules of a push (api-reference §1.2 step 5 and 6): which names are refused, which
 * file types are refused, and which names are dropped silently (the blacklist).
 */
import { baseName, MAX_SEGMENT_BYTES, projectPathError, TRAILING_SPACE_FOLDER } from './paths';

export { MAX_SEGMENT_BYTES };

/** The reference's default BLACKLIST: entries ending in '/' are folder names. */
export const BLACKLIST: readonly string[] = ['.mergin/', '.DS_Store', '.directory'];

/**
 * Names accepted without an extension. The blacklisted file names are here so that they
 * reach the blacklist and are dropped silently rather than refused.
 */
export const UPLOAD_FILES_WHITELIST: ReadonlySet<string> = new Set(['.DS_Store', '.directory']);

/** Executables and scripts (the reference's FORBIDDEN_EXTENSIONS, lower case). */
export const FORBIDDEN_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    '.ade .adp .app .appcontent-ms .application .appref-ms .asp .aspx .asx .bas .bat .bgi .cab ' +
    '.cer .chm .cmd .cnt .com .cpl .crt .csh .der .diagcab .dll .exe .fxp .gadget .grp .hlp ' +
    '.hpj .hta .htc .inf .ins .iso .isp .its .jar .jnlp .js .jse .ksh .lnk .mad .maf .mag .mam ' +
    '.maq .mar .mas .mat .mau .mav .maw .mcf .mda .mdb .mde .mdt .mdw .mdz .msc .msh .msh1 ' +
    '.msh2 .mshxml .msh1xml .msh2xml .msi .msp .mst .msu .ops .osd .pcd .php .pif .pl .plg .prf ' +
    '.prg .printerexport .ps1 .ps1xml .ps2 .ps2xml .psc1 .psc2 .psd1 .psdm1 .pst .py .pyc .pyo ' +
    '.pyw .pyz .pyzw .reg .scf .scr .sct .settingcontent-ms .sh .shb .shs .theme .tmp .url ' +
    '.vb .vbe .vbp .vbs .vhd .vhdx .vsmacros .vsw .webpnp .website .ws .wsb .wsc .wsf .wsh ' +
    '.xbap .xll .xnk'
  ).split(' '),
);

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
// eslint-disable-next-line no-control-regex
const INVALID_CHARS = /[\u0000-\u001f\u007f:*?"<>|\\]/;

export const unsupportedName = (path: string) =>
  `Unsupported file name detected: '${path}'. Please remove the invalid characters.`;
export const unsupportedType = (path: string) =>
  `Unsupported file type detected: '${path}'. Please remove the file or try compressing it into a ZIP file before uploading.`;
export const trailingSpace = (path: string) =>
  `Folder name contains a trailing space. Please remove the space in: '${path}'.`;

/** Whether `path` is refused as a file name (../, absolute, backslash, NUL, long segments...). */
export function isUnsupportedName(path: string): boolean {
  const problem = projectPathError(path);
  // A folder ending in a space has its own text (trailingSpace), checked after this.
  if (problem !== null && problem !== TRAILING_SPACE_FOLDER) return true;
  if (INVALID_CHARS.test(path)) return true;
  // Any '.' right before a separator ('./', '../', 'dir./x').
  if (/\.[/\\]/.test(path)) return true;
  return path
    .split('/')
    .some(
      (segment) =>
        Buffer.byteLength(segment, 'utf8') > MAX_SEGMENT_BYTES || WINDOWS_RESERVED.test(segment),
    );
}

/** Python's os.path.splitext extension (leading dots of the name do not start one). */
export function extensionOf(path: string): string {
  const name = baseName(path);
  const stem = name.replace(/^\.+/, '');
  const dot = stem.lastIndexOf('.');
  return dot < 0 ? '' : stem.slice(dot).toLowerCase();
}

/** Files without an extension (unless whitelisted) and forbidden types are refused. */
export function isUnsupportedType(path: string): boolean {
  if (UPLOAD_FILES_WHITELIST.has(baseName(path))) return false;
  const ext = extensionOf(path);
  return ext === '' || FORBIDDEN_EXTENSIONS.has(ext);
}

/** Some folder of an added path ends in whitespace. */
export function hasTrailingSpaceFolder(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((segment) => /\s$/.test(segment));
}

/** Dropped silently: a folder entry occurs in the folder part, a file entry in the name. */
export function isBlacklisted(path: string, blacklist: readonly string[] = BLACKLIST): boolean {
  const slash = path.lastIndexOf('/');
  const dir = slash < 0 ? '' : path.slice(0, slash);
  const name = path.slice(slash + 1);
  return blacklist.some((entry) =>
    entry.endsWith('/') ? dir.includes(entry.slice(0, -1)) : name.includes(entry),
  );
}
