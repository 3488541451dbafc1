/**
 * Text written to a file in pieces of about a mebibyte: an export holds one piece in memory
 * whatever the layer's size.
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** Characters gathered before they are written. */
const PIECE = 1 << 20;

export class FileSink {
  private readonly fd: number;
  private parts: string[] = [];
  private size = 0;

  constructor(path: string) {
    // A new file only: the caller named a fresh temporary path.
    this.fd = openSync(path, 'wx', 0o600);
  }

  write(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= PIECE) this.flush();
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}
