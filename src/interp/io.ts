/**
 * Byte-exact, synchronous standard streams for the interpreter: output is buffered in
 * 64 KiB chunks of raw bytes (never re-encoded) and flushed to a file descriptor, a
 * callback, or a list of collected chunks; input is read fully on first use.
 */
import { concatBytes, encodeUtf8, hostFdIO, latin1Bytes, userBytes } from '../platform/index.js';

export type OutSink = 'inherit' | 'collect' | ((chunk: Buffer) => void);

const BUF = 1 << 16;

export class OutStream {
  private buf = new Uint8Array(BUF);
  private pos = 0;
  private chunks: Uint8Array[] = [];
  total = 0;

  constructor(
    private readonly sink: OutSink,
    private readonly fd: number,
  ) {}

  byte(b: number): void {
    if (this.pos === BUF) this.flush();
    this.buf[this.pos++] = b;
  }

  /** Writes a latin1 string: one char per byte (chars are 0..255). */
  latin1(s: string): void {
    const n = s.length;
    if (n > BUF - this.pos) {
      this.flush();
      if (n > BUF) {
        this.emit(latin1Bytes(s));
        return;
      }
    }
    const b = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) b[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  bytes(u: Uint8Array): void {
    if (u.length > BUF - this.pos) {
      this.flush();
      if (u.length > BUF) {
        this.emit(u.slice());
        return;
      }
    }
    this.buf.set(u, this.pos);
    this.pos += u.length;
  }

  flush(): void {
    if (this.pos === 0) return;
    const chunk = userBytes(this.buf.slice(0, this.pos));
    this.pos = 0;
    this.emit(chunk);
  }

  private emit(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.sink === 'collect') this.chunks.push(chunk);
    else if (this.sink === 'inherit') writeAllSync(this.fd, chunk);
    else this.sink(userBytes(chunk));
  }

  /** Everything collected so far (collect mode). */
  collected(): Buffer {
    this.flush();
    return userBytes(concatBytes(this.chunks));
  }
}

function writeAllSync(fd: number, buf: Uint8Array): void {
  const { writeSync } = hostFdIO(`writing to fd ${fd}`);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') continue;
      if (code === 'EPIPE') return;
      throw e;
    }
  }
}

export type InSource = string | Uint8Array | 'inherit' | undefined;

/** Standard input: the whole input as bytes, with a read position (ungetc of one byte is pos--). */
export class InStream {
  private data: Uint8Array | null = null;
  pos = 0;

  constructor(private readonly source: InSource) {}

  get bytes(): Uint8Array {
    if (this.data === null) this.data = this.load();
    return this.data;
  }

  private load(): Uint8Array {
    const s = this.source;
    if (s === undefined) return new Uint8Array(0);
    if (typeof s === 'string') return s === 'inherit' ? readAllStdin() : encodeUtf8(s);
    return s;
  }

  /** Next byte or −1 at end of input. */
  getc(): number {
    const d = this.bytes;
    return this.pos < d.length ? d[this.pos++] : -1;
  }
  peek(): number {
    const d = this.bytes;
    return this.pos < d.length ? d[this.pos] : -1;
  }
}

// made on first use: a browser page that is not cross-origin isolated has no SharedArrayBuffer
let sleeper: Int32Array | null = null;

function readAllStdin(): Uint8Array {
  const { readSync } = hostFdIO('reading stdin');
  const parts: Uint8Array[] = [];
  const chunk = new Uint8Array(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, chunk, 0, chunk.length);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        // non-blocking stdin without data yet: wait a little instead of spinning
        Atomics.wait((sleeper ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, 10);
        continue;
      }
      if (code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    parts.push(chunk.slice(0, n));
  }
  return concatBytes(parts);
}
