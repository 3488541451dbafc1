/** The server version reported by /ping and /config (CalVer, like the reference server). */
export const VERSION = '2026.1.0';
export const SERVICE_NAME = 'Waymark';
export const BLACKLIST_DIRS = ['.mergin'] as const;
export const BLACKLIST_FILES = ['.DS_Store', '.directory'] as const;

export function versionParts(version: string = VERSION): {
  major: number;
  minor: number;
  fix: number | null;
} | null {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version);
  if (!match) return null;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    fix: match[3] === undefined ? null : Number(match[3]),
  };
}
