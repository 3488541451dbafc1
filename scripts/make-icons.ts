// Draws the app icons (a white map pin on the brand blue) as PNG files in public/icons.
// Run once with `npx tsx scripts/make-icons.ts`; the PNGs are committed.
import { deflateSync } from 'node:zlib';
import { writeFileSync, mkdirSync } from 'node:fs';

const BLUE: [number, number, number] = [0x1c, 0x7e, 0xd6];
const WHITE: [number, number, number] = [0xff, 0xff, 0xff];

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A pin: a circle with a point below it, and a hole; `scale` shrinks it for the maskable safe zone. */
function insidePin(x: number, y: number, size: number, scale: number): boolean {
  const cx = size / 2;
  const r = size * 0.22 * scale;
  const cy = size / 2 - r * 0.45;
  const dx = x - cx;
  const dy = y - cy;
  const d = Math.hypot(dx, dy);
  if (d < r * 0.42) return false;
  if (d <= r) return true;
  const tipY = cy + r * 2.1;
  if (y > cy && y < tipY) {
    const half = r * ((tipY - y) / (tipY - cy)) * 0.93;
    return Math.abs(dx) <= half;
  }
  return false;
}

function png(size: number, scale: number, rounded: boolean): Buffer {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  const radius = size * 0.18;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const o = y * (size * 4 + 1) + 1 + x * 4;
      let alpha = 255;
      if (rounded) {
        const qx = Math.max(radius - x, x - (size - 1 - radius), 0);
        const qy = Math.max(radius - y, y - (size - 1 - radius), 0);
        if (Math.hypot(qx, qy) > radius) alpha = 0;
      }
      const [r, g, b] = insidePin(x + 0.5, y + 0.5, size, scale) ? WHITE : BLUE;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = alpha;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8;
  header[9] = 6;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync('public/icons', { recursive: true });
writeFileSync('public/icons/icon-192.png', png(192, 1, true));
writeFileSync('public/icons/icon-512.png', png(512, 1, true));
writeFileSync('public/icons/icon-maskable-512.png', png(512, 0.75, false));
writeFileSync('public/icons/apple-touch-icon-180.png', png(180, 0.9, false));
console.log('icons written to public/icons');
