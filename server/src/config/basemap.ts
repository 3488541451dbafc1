/** The map's basemap: BASEMAP_URL and BASEMAP_ATTRIBUTION (unset: no outside requests). */
import { ConfigError, isUrl, quoted, read, type Env } from './read';
import type { Config } from './types';

/** BASEMAP_URL and BASEMAP_ATTRIBUTION. */
export function readBasemap(env: Env): Config['basemap'] {
  const url = read(env, 'BASEMAP_URL');
  const attribution = read(env, 'BASEMAP_ATTRIBUTION') ?? '';
  if (url === undefined) {
    if (attribution !== '') {
      throw new ConfigError('BASEMAP_URL', 'BASEMAP_URL must be set when BASEMAP_ATTRIBUTION is');
    }
    return null;
  }
  const template = url.replace(/\{([xyz]|[a-z]-[a-z])\}/g, '0');
  const valid =
    ['{z}', '{x}', '{y}'].every((part) => url.includes(part)) &&
    isUrl(template, ['http:', 'https:']);
  if (!valid) {
    throw new ConfigError(
      'BASEMAP_URL',
      `BASEMAP_URL must be an http(s) address with {z}, {x} and {y} (got ${quoted(url)})`,
    );
  }
  if (/[<>]/.test(attribution)) {
    throw new ConfigError('BASEMAP_ATTRIBUTION', 'BASEMAP_ATTRIBUTION must be plain text');
  }
  return { url, attribution };
}
