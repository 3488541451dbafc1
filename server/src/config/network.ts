/**
 * Where the server listens and how it is reached: PORT, HOST, BASE_URL, TRUST_PROXY, and
 * EMBED_ORIGINS (which sites may frame a public map).
 */
import { isIP } from 'node:net';
import type { Config } from './types';
import { ConfigError, quoted, read, readHttpUrl, readInteger, type Env } from './read';

export type Listen = Pick<Config, 'port' | 'host' | 'baseUrl' | 'secureCookies'>;

/** PORT, HOST and BASE_URL (by default http://HOST:PORT, localhost for every interface). */
export function readListen(env: Env): Listen {
  const port = readInteger(env, 'PORT', 8080, 1, 65535);
  const host = read(env, 'HOST') ?? '127.0.0.1';
  if (/[\s/]/.test(host)) {
    throw new ConfigError('HOST', `HOST must be a host name or IP address (got ${quoted(host)})`);
  }
  const given = readHttpUrl(env, 'BASE_URL');
  let baseUrl: string;
  if (given === null) {
    const shownHost =
      host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    baseUrl = `http://${shownHost}:${port}`;
  } else {
    baseUrl = given.replace(/\/+$/, '');
  }
  return { port, host, baseUrl, secureCookies: baseUrl.startsWith('https:') };
}

/** An IP address or CIDR range (`10.0.0.0/8`, `::1`). */
function isAddressOrRange(text: string): boolean {
  const [address, bits, ...rest] = text.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

export function readTrustProxy(env: Env): boolean | string {
  const raw = read(env, 'TRUST_PROXY');
  if (raw === undefined || /^(false|no|0)$/i.test(raw)) return false;
  if (/^(true|yes)$/i.test(raw)) return true;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.every(isAddressOrRange)) return parts.join(',');
  throw new ConfigError(
    'TRUST_PROXY',
    `TRUST_PROXY must be true/false or addresses/CIDRs, comma-separated (got ${quoted(raw)})`,
  );
}

/** An origin EMBED_ORIGINS accepts: scheme, host (a `*.` wildcard first), optional port. */
const EMBED_ORIGIN =
  /^https?:\/\/(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/i;

/** EMBED_ORIGINS: null (unset: any site), [] (`none`), or the origins. */
export function readEmbedOrigins(env: Env): readonly string[] | null {
  const raw = read(env, 'EMBED_ORIGINS');
  if (raw === undefined) return null;
  if (raw.toLowerCase() === 'none') return Object.freeze([]);
  const origins = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const wrong = origins.find((origin) => !EMBED_ORIGIN.test(origin));
  if (wrong !== undefined || origins.length === 0) {
    throw new ConfigError(
      'EMBED_ORIGINS',
      `EMBED_ORIGINS must be none or origins such as https://example.org, comma-separated (got ${quoted(wrong ?? raw)})`,
    );
  }
  return Object.freeze(origins.map((origin) => origin.toLowerCase()));
}
