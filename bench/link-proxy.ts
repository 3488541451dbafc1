// A slow, unreliable link for bench/link.bench.ts: a TCP proxy in front of the server that
// carries every connection's bytes over one shared link per direction at `rateBitsPerSecond`,
// each byte arriving `delayMs` after it left (so a round trip takes 2 × delayMs more), and
// that can cut every open connection at once and refuse new ones for an outage. No tc/netem:
// the proxy is the link. A sender is paused while more than `queueBytes` wait in its
// direction (a router's queue), so the browser feels the link's rate as it would.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface LinkOptions {
  rateBitsPerSecond: number;
  delayMs: number;
  /** Bytes a direction holds before its senders are paused (default 256 KiB). */
  queueBytes?: number;
}

/** Bytes are shaped in pieces of at most this size. */
const SEGMENT = 16 * 1024;

/** One direction of the link: a queue that lets bytes out at the link's rate. */
class Direction {
  bytes = 0;
  private freeAt = 0;
  private queued = 0;
  private readonly paused = new Set<Socket>();
  private readonly armed = new Set<Socket>();
  /** Segments on their way, per receiving socket, in the order they were sent. */
  private readonly queues = new Map<Socket, { segment: Buffer; due: number }[]>();

  constructor(private readonly options: Required<LinkOptions>) {}

  carry(data: Buffer, from: Socket, to: Socket): void {
    let queue = this.queues.get(to);
    if (!queue) {
      queue = [];
      this.queues.set(to, queue);
      to.once('close', () => this.queues.delete(to));
    }
    for (let at = 0; at < data.length; at += SEGMENT) {
      const segment = data.subarray(at, at + SEGMENT);
      const now = performance.now();
      this.freeAt =
        Math.max(now, this.freeAt) + (segment.length * 8 * 1000) / this.options.rateBitsPerSecond;
      const due = this.freeAt + this.options.delayMs;
      this.queued += segment.length;
      queue.push({ segment, due });
    }
    this.arm(to, queue);
    if (this.queued > this.options.queueBytes && !from.destroyed) {
      from.pause();
      this.paused.add(from);
    }
  }

  /** One timer per receiving socket, for the head of its queue. */
  private arm(to: Socket, queue: { due: number }[]): void {
    if (this.armed.has(to) || queue.length === 0) return;
    this.armed.add(to);
    setTimeout(() => this.deliver(to), Math.max(0, queue[0]!.due - performance.now()));
  }

  /**
   * Delivers `to`'s segments that are due, in the order they were sent (timers alone may
   * fire out of order within a millisecond, which would scramble the stream).
   */
  private deliver(to: Socket): void {
    const queue = this.queues.get(to) ?? [];
    const now = performance.now() + 1;
    while (queue.length > 0 && queue[0]!.due <= now) {
      const { segment } = queue.shift()!;
      this.queued -= segment.length;
      if (!to.destroyed) {
        this.bytes += segment.length;
        to.write(segment);
      }
    }
    this.armed.delete(to);
    // A timer may fire early (it counts from the event loop's cached time): the head that
    // is not due yet gets a timer of its own again.
    this.arm(to, queue);
    if (this.queued <= this.options.queueBytes / 2) this.resumeSenders();
  }

  /** The link was cut: what waited in it is lost, and it is free at once. */
  reset(): void {
    this.freeAt = 0;
    for (const queue of this.queues.values()) {
      for (const { segment } of queue) this.queued -= segment.length;
    }
    this.queues.clear();
    this.armed.clear();
    this.resumeSenders();
  }

  private resumeSenders(): void {
    for (const socket of this.paused) if (!socket.destroyed) socket.resume();
    this.paused.clear();
  }
}

export class LinkProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private readonly up: Direction;
  private readonly down: Direction;
  private refuseUntil = 0;
  /** Connections cut by cut(). */
  cutConnections = 0;

  constructor(
    private readonly targetPort: number,
    options: LinkOptions,
  ) {
    const full = { queueBytes: 256 * 1024, ...options };
    this.up = new Direction(full);
    this.down = new Direction(full);
  }

  /** Bytes delivered to the server so far. */
  get bytesUp(): number {
    return this.up.bytes;
  }

  /** Listens on a free port of 127.0.0.1; answers it. */
  async listen(): Promise<number> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('No proxy port');
    return address.port;
  }

  private accept(client: Socket): void {
    if (performance.now() < this.refuseUntil) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ port: this.targetPort, host: '127.0.0.1' });
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (data) => this.up.carry(data, client, upstream));
    upstream.on('data', (data) => this.down.carry(data, upstream, client));
  }

  /** Cuts every open connection now, and refuses new ones for `outageMs`. */
  cut(outageMs: number): void {
    this.refuseUntil = performance.now() + outageMs;
    this.cutConnections += this.sockets.size / 2;
    for (const socket of [...this.sockets]) socket.destroy();
    this.up.reset();
    this.down.reset();
  }

  /** Resolves once `bytes` have been delivered to the server. */
  async whenUp(bytes: number): Promise<void> {
    while (this.bytesUp < bytes) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  async close(): Promise<void> {
    for (const socket of [...this.sockets]) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
  }
}
