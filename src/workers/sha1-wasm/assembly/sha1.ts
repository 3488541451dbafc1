// SHA-1 (FIPS 180-4) in AssemblyScript, built to ../sha1.wasm by `npm run build:sha1-wasm`
// (README.md beside this folder). Why it is faster than hash-wasm's SHA-1 in Chromium
// (docs/upload-profile.md, "Hashing in the browser's worker"):
// - the 80 rounds are written out: the five working variables stay in locals and each round
//   renames them instead of moving them;
// - each round adds the rotated newest variable last (`... + rotl(a, 5)`), so the chain from
//   one round to the next is a rotate and one add; the other terms are ready earlier;
// - the message schedule is computed four words at a time with SIMD (v128), with the round
//   constant added, and stored for the rounds to load: the scalar rounds need no schedule
//   registers. Words 16–31 fix up the one word whose W[t-3] is in its own group; from word
//   32 on, W[t] = rotl2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]) has none.
// The host copies input into the region at INPUT (at most INPUT_SIZE bytes per call) and
// calls update(size); whole blocks are hashed where they lie, a partial block is kept in
// PENDING for the next call.

/** Where the host writes the bytes to hash: pages 1–16 (page 0 holds the small state below). */
const INPUT: usize = 65536;
/** Bytes the host may write at INPUT before each update() (the memory has 17 pages). */
const INPUT_SIZE: i32 = 1048576;
/** A partial block carried from one update() to the next. */
const PENDING: usize = 1024;
/** The 20-byte digest, big-endian, after final(). */
const DIGEST: usize = 1152;
/** The 80 schedule words of the block being hashed, each plus its round constant. */
const WK: usize = 1280;

let h0: u32 = 0;
let h1: u32 = 0;
let h2: u32 = 0;
let h3: u32 = 0;
let h4: u32 = 0;
/** Bytes in PENDING (0–63). */
let pending: i32 = 0;
/** Bytes hashed in all, for the final length. */
let length: u64 = 0;

export function inputOffset(): usize {
  return INPUT;
}

export function inputSize(): i32 {
  return INPUT_SIZE;
}

export function digestOffset(): usize {
  return DIGEST;
}

export function init(): void {
  h0 = 0x67452301;
  h1 = 0xefcdab89;
  h2 = 0x98badcfe;
  h3 = 0x10325476;
  h4 = 0xc3d2e1f0;
  pending = 0;
  length = 0;
}

// The rounds' functions, each answering the new first variable (`wk` = W[t] + K[t]).

// @ts-expect-error: AssemblyScript decorator
@inline function choose(a: u32, b: u32, c: u32, d: u32, e: u32, wk: u32): u32 {
  return e + wk + (d ^ (b & (c ^ d))) + rotl<u32>(a, 5);
}

// @ts-expect-error: AssemblyScript decorator
@inline function parity(a: u32, b: u32, c: u32, d: u32, e: u32, wk: u32): u32 {
  return e + wk + (b ^ c ^ d) + rotl<u32>(a, 5);
}

// @ts-expect-error: AssemblyScript decorator
@inline function majority(a: u32, b: u32, c: u32, d: u32, e: u32, wk: u32): u32 {
  return e + wk + (b & c) + (d & (b ^ c)) + rotl<u32>(a, 5);
}

const ZERO: v128 = i32x4.splat(0);

/** The four big-endian words of a 16-byte load. */
// @ts-expect-error: AssemblyScript decorator
@inline function swapped(m: v128): v128 {
  return i8x16.shuffle(m, m, 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
}

// @ts-expect-error: AssemblyScript decorator
@inline function rotl1(x: v128): v128 {
  return v128.or(i32x4.shl(x, 1), i32x4.shr_u(x, 31));
}

// @ts-expect-error: AssemblyScript decorator
@inline function rotl2(x: v128): v128 {
  return v128.or(i32x4.shl(x, 2), i32x4.shr_u(x, 30));
}

/** (x1, x2, x3, 0): W[t-3] for the group after x, its own first word not known yet. */
// @ts-expect-error: AssemblyScript decorator
@inline function shift3(x: v128): v128 {
  return i8x16.shuffle(x, ZERO, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
}

/** (x2, x3, y0, y1): the words between two consecutive groups. */
// @ts-expect-error: AssemblyScript decorator
@inline function middle(x: v128, y: v128): v128 {
  return i8x16.shuffle(x, y, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
}

/** (0, 0, 0, x0): the first word of a group, moved to where the group's last needs it. */
// @ts-expect-error: AssemblyScript decorator
@inline function lastFromFirst(x: v128): v128 {
  return i8x16.shuffle(ZERO, x, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19);
}

/** Hashes the 64-byte block at `block` into h0–h4. */
function compress(block: usize): void {
  const k1 = i32x4.splat(0x5a827999);
  const k2 = i32x4.splat(0x6ed9eba1);
  const k3 = i32x4.splat(0x8f1bbcdc);
  const k4 = i32x4.splat(0xca62c1d6);
  let a = h0;
  let b = h1;
  let c = h2;
  let d = h3;
  let e = h4;
  let x: v128;
  // Each group of four schedule words (m0–m19) is computed with SIMD two groups before its
  // rounds need it and stored with its round constant added (WK); the rounds load them.
  const m0 = swapped(load<v128>(block, 0));
  v128.store(WK, i32x4.add(m0, k1), 0);
  const m1 = swapped(load<v128>(block, 16));
  v128.store(WK, i32x4.add(m1, k1), 16);
  const m2 = swapped(load<v128>(block, 32));
  v128.store(WK, i32x4.add(m2, k1), 32);
  e = choose(a, b, c, d, e, load<u32>(WK, 0)); b = rotl<u32>(b, 30);
  d = choose(e, a, b, c, d, load<u32>(WK, 4)); a = rotl<u32>(a, 30);
  c = choose(d, e, a, b, c, load<u32>(WK, 8)); e = rotl<u32>(e, 30);
  b = choose(c, d, e, a, b, load<u32>(WK, 12)); d = rotl<u32>(d, 30);
  const m3 = swapped(load<v128>(block, 48));
  v128.store(WK, i32x4.add(m3, k1), 48);
  a = choose(b, c, d, e, a, load<u32>(WK, 16)); c = rotl<u32>(c, 30);
  e = choose(a, b, c, d, e, load<u32>(WK, 20)); b = rotl<u32>(b, 30);
  d = choose(e, a, b, c, d, load<u32>(WK, 24)); a = rotl<u32>(a, 30);
  c = choose(d, e, a, b, c, load<u32>(WK, 28)); e = rotl<u32>(e, 30);
  x = rotl1(v128.xor(v128.xor(shift3(m3), m2), v128.xor(middle(m0, m1), m0)));
  const m4 = v128.xor(x, rotl1(lastFromFirst(x)));
  v128.store(WK, i32x4.add(m4, k1), 64);
  b = choose(c, d, e, a, b, load<u32>(WK, 32)); d = rotl<u32>(d, 30);
  a = choose(b, c, d, e, a, load<u32>(WK, 36)); c = rotl<u32>(c, 30);
  e = choose(a, b, c, d, e, load<u32>(WK, 40)); b = rotl<u32>(b, 30);
  d = choose(e, a, b, c, d, load<u32>(WK, 44)); a = rotl<u32>(a, 30);
  x = rotl1(v128.xor(v128.xor(shift3(m4), m3), v128.xor(middle(m1, m2), m1)));
  const m5 = v128.xor(x, rotl1(lastFromFirst(x)));
  v128.store(WK, i32x4.add(m5, k2), 80);
  c = choose(d, e, a, b, c, load<u32>(WK, 48)); e = rotl<u32>(e, 30);
  b = choose(c, d, e, a, b, load<u32>(WK, 52)); d = rotl<u32>(d, 30);
  a = choose(b, c, d, e, a, load<u32>(WK, 56)); c = rotl<u32>(c, 30);
  e = choose(a, b, c, d, e, load<u32>(WK, 60)); b = rotl<u32>(b, 30);
  x = rotl1(v128.xor(v128.xor(shift3(m5), m4), v128.xor(middle(m2, m3), m2)));
  const m6 = v128.xor(x, rotl1(lastFromFirst(x)));
  v128.store(WK, i32x4.add(m6, k2), 96);
  d = choose(e, a, b, c, d, load<u32>(WK, 64)); a = rotl<u32>(a, 30);
  c = choose(d, e, a, b, c, load<u32>(WK, 68)); e = rotl<u32>(e, 30);
  b = choose(c, d, e, a, b, load<u32>(WK, 72)); d = rotl<u32>(d, 30);
  a = choose(b, c, d, e, a, load<u32>(WK, 76)); c = rotl<u32>(c, 30);
  x = rotl1(v128.xor(v128.xor(shift3(m6), m5), v128.xor(middle(m3, m4), m3)));
  const m7 = v128.xor(x, rotl1(lastFromFirst(x)));
  v128.store(WK, i32x4.add(m7, k2), 112);
  e = parity(a, b, c, d, e, load<u32>(WK, 80)); b = rotl<u32>(b, 30);
  d = parity(e, a, b, c, d, load<u32>(WK, 84)); a = rotl<u32>(a, 30);
  c = parity(d, e, a, b, c, load<u32>(WK, 88)); e = rotl<u32>(e, 30);
  b = parity(c, d, e, a, b, load<u32>(WK, 92)); d = rotl<u32>(d, 30);
  const m8 = rotl2(v128.xor(v128.xor(middle(m6, m7), m4), v128.xor(m1, m0)));
  v128.store(WK, i32x4.add(m8, k2), 128);
  a = parity(b, c, d, e, a, load<u32>(WK, 96)); c = rotl<u32>(c, 30);
  e = parity(a, b, c, d, e, load<u32>(WK, 100)); b = rotl<u32>(b, 30);
  d = parity(e, a, b, c, d, load<u32>(WK, 104)); a = rotl<u32>(a, 30);
  c = parity(d, e, a, b, c, load<u32>(WK, 108)); e = rotl<u32>(e, 30);
  const m9 = rotl2(v128.xor(v128.xor(middle(m7, m8), m5), v128.xor(m2, m1)));
  v128.store(WK, i32x4.add(m9, k2), 144);
  b = parity(c, d, e, a, b, load<u32>(WK, 112)); d = rotl<u32>(d, 30);
  a = parity(b, c, d, e, a, load<u32>(WK, 116)); c = rotl<u32>(c, 30);
  e = parity(a, b, c, d, e, load<u32>(WK, 120)); b = rotl<u32>(b, 30);
  d = parity(e, a, b, c, d, load<u32>(WK, 124)); a = rotl<u32>(a, 30);
  const m10 = rotl2(v128.xor(v128.xor(middle(m8, m9), m6), v128.xor(m3, m2)));
  v128.store(WK, i32x4.add(m10, k3), 160);
  c = parity(d, e, a, b, c, load<u32>(WK, 128)); e = rotl<u32>(e, 30);
  b = parity(c, d, e, a, b, load<u32>(WK, 132)); d = rotl<u32>(d, 30);
  a = parity(b, c, d, e, a, load<u32>(WK, 136)); c = rotl<u32>(c, 30);
  e = parity(a, b, c, d, e, load<u32>(WK, 140)); b = rotl<u32>(b, 30);
  const m11 = rotl2(v128.xor(v128.xor(middle(m9, m10), m7), v128.xor(m4, m3)));
  v128.store(WK, i32x4.add(m11, k3), 176);
  d = parity(e, a, b, c, d, load<u32>(WK, 144)); a = rotl<u32>(a, 30);
  c = parity(d, e, a, b, c, load<u32>(WK, 148)); e = rotl<u32>(e, 30);
  b = parity(c, d, e, a, b, load<u32>(WK, 152)); d = rotl<u32>(d, 30);
  a = parity(b, c, d, e, a, load<u32>(WK, 156)); c = rotl<u32>(c, 30);
  const m12 = rotl2(v128.xor(v128.xor(middle(m10, m11), m8), v128.xor(m5, m4)));
  v128.store(WK, i32x4.add(m12, k3), 192);
  e = majority(a, b, c, d, e, load<u32>(WK, 160)); b = rotl<u32>(b, 30);
  d = majority(e, a, b, c, d, load<u32>(WK, 164)); a = rotl<u32>(a, 30);
  c = majority(d, e, a, b, c, load<u32>(WK, 168)); e = rotl<u32>(e, 30);
  b = majority(c, d, e, a, b, load<u32>(WK, 172)); d = rotl<u32>(d, 30);
  const m13 = rotl2(v128.xor(v128.xor(middle(m11, m12), m9), v128.xor(m6, m5)));
  v128.store(WK, i32x4.add(m13, k3), 208);
  a = majority(b, c, d, e, a, load<u32>(WK, 176)); c = rotl<u32>(c, 30);
  e = majority(a, b, c, d, e, load<u32>(WK, 180)); b = rotl<u32>(b, 30);
  d = majority(e, a, b, c, d, load<u32>(WK, 184)); a = rotl<u32>(a, 30);
  c = majority(d, e, a, b, c, load<u32>(WK, 188)); e = rotl<u32>(e, 30);
  const m14 = rotl2(v128.xor(v128.xor(middle(m12, m13), m10), v128.xor(m7, m6)));
  v128.store(WK, i32x4.add(m14, k3), 224);
  b = majority(c, d, e, a, b, load<u32>(WK, 192)); d = rotl<u32>(d, 30);
  a = majority(b, c, d, e, a, load<u32>(WK, 196)); c = rotl<u32>(c, 30);
  e = majority(a, b, c, d, e, load<u32>(WK, 200)); b = rotl<u32>(b, 30);
  d = majority(e, a, b, c, d, load<u32>(WK, 204)); a = rotl<u32>(a, 30);
  const m15 = rotl2(v128.xor(v128.xor(middle(m13, m14), m11), v128.xor(m8, m7)));
  v128.store(WK, i32x4.add(m15, k4), 240);
  c = majority(d, e, a, b, c, load<u32>(WK, 208)); e = rotl<u32>(e, 30);
  b = majority(c, d, e, a, b, load<u32>(WK, 212)); d = rotl<u32>(d, 30);
  a = majority(b, c, d, e, a, load<u32>(WK, 216)); c = rotl<u32>(c, 30);
  e = majority(a, b, c, d, e, load<u32>(WK, 220)); b = rotl<u32>(b, 30);
  const m16 = rotl2(v128.xor(v128.xor(middle(m14, m15), m12), v128.xor(m9, m8)));
  v128.store(WK, i32x4.add(m16, k4), 256);
  d = majority(e, a, b, c, d, load<u32>(WK, 224)); a = rotl<u32>(a, 30);
  c = majority(d, e, a, b, c, load<u32>(WK, 228)); e = rotl<u32>(e, 30);
  b = majority(c, d, e, a, b, load<u32>(WK, 232)); d = rotl<u32>(d, 30);
  a = majority(b, c, d, e, a, load<u32>(WK, 236)); c = rotl<u32>(c, 30);
  const m17 = rotl2(v128.xor(v128.xor(middle(m15, m16), m13), v128.xor(m10, m9)));
  v128.store(WK, i32x4.add(m17, k4), 272);
  e = parity(a, b, c, d, e, load<u32>(WK, 240)); b = rotl<u32>(b, 30);
  d = parity(e, a, b, c, d, load<u32>(WK, 244)); a = rotl<u32>(a, 30);
  c = parity(d, e, a, b, c, load<u32>(WK, 248)); e = rotl<u32>(e, 30);
  b = parity(c, d, e, a, b, load<u32>(WK, 252)); d = rotl<u32>(d, 30);
  const m18 = rotl2(v128.xor(v128.xor(middle(m16, m17), m14), v128.xor(m11, m10)));
  v128.store(WK, i32x4.add(m18, k4), 288);
  a = parity(b, c, d, e, a, load<u32>(WK, 256)); c = rotl<u32>(c, 30);
  e = parity(a, b, c, d, e, load<u32>(WK, 260)); b = rotl<u32>(b, 30);
  d = parity(e, a, b, c, d, load<u32>(WK, 264)); a = rotl<u32>(a, 30);
  c = parity(d, e, a, b, c, load<u32>(WK, 268)); e = rotl<u32>(e, 30);
  const m19 = rotl2(v128.xor(v128.xor(middle(m17, m18), m15), v128.xor(m12, m11)));
  v128.store(WK, i32x4.add(m19, k4), 304);
  b = parity(c, d, e, a, b, load<u32>(WK, 272)); d = rotl<u32>(d, 30);
  a = parity(b, c, d, e, a, load<u32>(WK, 276)); c = rotl<u32>(c, 30);
  e = parity(a, b, c, d, e, load<u32>(WK, 280)); b = rotl<u32>(b, 30);
  d = parity(e, a, b, c, d, load<u32>(WK, 284)); a = rotl<u32>(a, 30);
  c = parity(d, e, a, b, c, load<u32>(WK, 288)); e = rotl<u32>(e, 30);
  b = parity(c, d, e, a, b, load<u32>(WK, 292)); d = rotl<u32>(d, 30);
  a = parity(b, c, d, e, a, load<u32>(WK, 296)); c = rotl<u32>(c, 30);
  e = parity(a, b, c, d, e, load<u32>(WK, 300)); b = rotl<u32>(b, 30);
  d = parity(e, a, b, c, d, load<u32>(WK, 304)); a = rotl<u32>(a, 30);
  c = parity(d, e, a, b, c, load<u32>(WK, 308)); e = rotl<u32>(e, 30);
  b = parity(c, d, e, a, b, load<u32>(WK, 312)); d = rotl<u32>(d, 30);
  a = parity(b, c, d, e, a, load<u32>(WK, 316)); c = rotl<u32>(c, 30);
  h0 += a;
  h1 += b;
  h2 += c;
  h3 += d;
  h4 += e;
}

/** Hashes the `size` bytes the host wrote at INPUT. */
export function update(size: i32): void {
  length += <u64>size;
  let at: usize = INPUT;
  const end: usize = INPUT + <usize>size;
  if (pending > 0) {
    const take = min<i32>(64 - pending, size);
    memory.copy(PENDING + <usize>pending, at, <usize>take);
    pending += take;
    at += <usize>take;
    if (pending < 64) return;
    compress(PENDING);
    pending = 0;
  }
  while (at + 64 <= end) {
    compress(at);
    at += 64;
  }
  pending = <i32>(end - at);
  memory.copy(PENDING, at, <usize>pending);
}

/** Pads, hashes the last block(s) and writes the digest at DIGEST. */
export function final(): void {
  const bits = length << 3;
  store<u8>(PENDING + <usize>pending, 0x80);
  pending += 1;
  if (pending > 56) {
    memory.fill(PENDING + <usize>pending, 0, <usize>(64 - pending));
    compress(PENDING);
    pending = 0;
  }
  memory.fill(PENDING + <usize>pending, 0, <usize>(56 - pending));
  store<u64>(PENDING + 56, bswap<u64>(bits));
  compress(PENDING);
  store<u32>(DIGEST, bswap<u32>(h0));
  store<u32>(DIGEST + 4, bswap<u32>(h1));
  store<u32>(DIGEST + 8, bswap<u32>(h2));
  store<u32>(DIGEST + 12, bswap<u32>(h3));
  store<u32>(DIGEST + 16, bswap<u32>(h4));
}
