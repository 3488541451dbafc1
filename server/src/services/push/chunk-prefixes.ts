/**
 * The received prefix of a chunk whose request broke off (a lost connection), kept so the
 * client sends only the rest (docs/decisions/0104-chunk-prefix.md). The bytes stay staged;
 * their ChunkIntake (byte count, digests so far, kept copy) waits here, and the status call
 * tells the client how many bytes of which chunk the server holds (`chunk_prefixes`). A
 * request carrying CHUNK_OFFSET_HEADER continues from exactly that many bytes.
 *
 * In memory, per process: after a restart or on another instance the prefix is unknown and
 * the chunk is sent whole, as before. At most MAX_PREFIXES are kept, each for PREFIX_TTL_MS.
 * Each write of a chunk holds a token; only the latest write of a chunk may leave its prefix,
 * so a request that breaks off after a newer one started does not overwrite its place.
 */
import type { ChunkIntake } from '../../storage/staging';

export const MAX_PREFIXES = 8;
export const PREFIX_TTL_MS = 30 * 60 * 1000;

interface Prefix {
  intake: ChunkIntake;
  at: number;
}

const keyOf = (uploadId: string, chunkId: string) => `${uploadId}/${chunkId}`;

/** Prefixes by upload/chunk, oldest first (Map keeps insertion order). */
const prefixes = new Map<string, Prefix>();
/** The latest write of each chunk being written. */
const writers = new Map<string, symbol>();

/**
 * Starts a write of the chunk: any prefix kept for it is dropped (its bytes are about to be
 * replaced), except the one `offset` asks to continue, which is answered (null when the
 * server does not hold exactly that many bytes of it).
 */
export function beginChunkWrite(
  uploadId: string,
  chunkId: string,
  offset: number,
  now: number,
): { token: symbol; from: ChunkIntake | null } {
  const key = keyOf(uploadId, chunkId);
  const kept = prefixes.get(key);
  prefixes.delete(key);
  const token = Symbol(key);
  writers.set(key, token);
  const usable = kept && now - kept.at < PREFIX_TTL_MS && offset > 0 && kept.intake.size === offset;
  return { token, from: usable ? kept.intake : null };
}

/** Whether `token` is still the latest write of the chunk (no newer request took it over). */
export function isLatestWrite(uploadId: string, chunkId: string, token: symbol): boolean {
  return writers.get(keyOf(uploadId, chunkId)) === token;
}

/** Ends a write; `interrupted`: its intake, when the body broke off with bytes staged. */
export function endChunkWrite(
  uploadId: string,
  chunkId: string,
  token: symbol,
  interrupted: ChunkIntake | null,
  now: number,
): void {
  const key = keyOf(uploadId, chunkId);
  if (writers.get(key) !== token) return;
  writers.delete(key);
  if (!interrupted || interrupted.size === 0) return;
  for (const [other, prefix] of prefixes) {
    if (prefixes.size < MAX_PREFIXES && now - prefix.at < PREFIX_TTL_MS) break;
    prefixes.delete(other);
  }
  prefixes.set(key, { intake: interrupted, at: now });
}

/** The prefixes kept for an upload: chunk id → bytes held. */
export function prefixesOf(uploadId: string, now: number): Record<string, number> {
  const held: Record<string, number> = {};
  const start = `${uploadId}/`;
  for (const [key, prefix] of prefixes) {
    if (!key.startsWith(start) || now - prefix.at >= PREFIX_TTL_MS) continue;
    held[key.slice(start.length)] = prefix.intake.size;
  }
  return held;
}

/** Drops an upload's prefixes (finished, cancelled, or its files refused). */
export function forgetPrefixes(uploadId: string): void {
  const start = `${uploadId}/`;
  for (const key of prefixes.keys()) if (key.startsWith(start)) prefixes.delete(key);
}
