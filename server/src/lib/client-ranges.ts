/**
 * The python client (desktop plugin) downloads a file in parts of 100 MiB + 1 bytes:
 * part i asks `Range: bytes=S-(S+104857600)` with S = i × 104857601 (client-compat §6.1).
 * For a size in n × 100 MiB < size ≤ n × (100 MiB + 1) its last part starts past the end;
 * a 416 there fails the whole download, an empty 200 lets it finish. Only that exact part
 * shape gets the empty answer; every other unsatisfiable range stays a 416.
 */
export const CLIENT_PART_SIZE = 100 * 1024 * 1024;

export function isClientPartPastEnd(header: string | undefined, size: number): boolean {
  if (header === undefined) return false;
  const match = /^\s*bytes\s*=\s*(\d+)\s*-\s*(\d+)\s*$/i.exec(header);
  if (!match) return false;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return (
    Number.isSafeInteger(start) &&
    start >= size &&
    start > 0 &&
    start % (CLIENT_PART_SIZE + 1) === 0 &&
    end === start + CLIENT_PART_SIZE
  );
}
