/**
 * The only place the library touches its host: the clock, environment switches, the
 * standard streams of the process, and byte buffers. Everything else under src/ (except
 * cli/ and the Node-only streaming workers) imports nothing from Node, so the library
 * bundles for a browser with no stubs (test/platform/browser-bundle.test.ts checks it).
 *
 * Under Node the file-descriptor I/O is found through `process.getBuiltinModule` (Node
 * >= 20.16) without a static `node:` import; the CLI installs the full Node platform
 * (./node.ts) explicitly, which also covers older Node 20 releases. In a browser, or in
 * a Web Worker, there are no file descriptors: `'inherit'` streams must be replaced by
 * `'collect'` or a callback, and the interpreter says so instead of failing obscurely.
 */

/** Synchronous whole-buffer file-descriptor I/O (Node's fs.readSync / fs.writeSync). */
export interface FdIO {
  readSync(fd: number, buf: Uint8Array, off: number, len: number): number;
  writeSync(fd: number, buf: Uint8Array, off: number, len: number): number;
}

interface ProcessLike {
  env?: Record<string, string | undefined>;
  hrtime?: { bigint(): bigint };
  stderr?: { write(s: string): unknown };
  getBuiltinModule?: (id: string) => unknown;
}

const proc: ProcessLike | undefined = (globalThis as { process?: ProcessLike }).process;

let fdio: FdIO | null = null;

/** Installs file-descriptor I/O (the CLI does, from ./node.ts). */
export function setFdIO(io: FdIO): void {
  fdio = io;
}

/** File-descriptor I/O of the host, or a located error where there is none (a browser). */
export function hostFdIO(what: string): FdIO {
  if (fdio !== null) return fdio;
  const fs = proc?.getBuiltinModule?.('node:fs') as
    | { readSync(fd: number, b: Uint8Array, o: number, l: number, p: null): number; writeSync(fd: number, b: Uint8Array, o: number, l: number): number }
    | undefined;
  if (fs !== undefined) {
    fdio = { readSync: (fd, b, o, l) => fs.readSync(fd, b, o, l, null), writeSync: (fd, b, o, l) => fs.writeSync(fd, b, o, l) };
    return fdio;
  }
  throw new Error(`${what}: this host has no file descriptors (a browser?); use 'collect' or a callback instead of 'inherit'`);
}

/** An environment switch (debugging aids like SSAKIT_DUMP_JS); always undefined in a browser. */
export function envVar(name: string): string | undefined {
  return proc?.env?.[name];
}

/** Milliseconds from an arbitrary origin, sub-millisecond where the host allows it. */
export function nowMs(): number {
  return performance.now();
}

/** Microseconds as a bigint (the interpreter's gettimeofday/clock_gettime). */
export function nowUs(): bigint {
  if (proc?.hrtime !== undefined) return proc.hrtime.bigint() / 1000n;
  return BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000));
}

/** Writes diagnostics text where the host keeps them (stderr, else the console). */
export function writeDiagnostics(text: string): void {
  if (proc?.stderr !== undefined) proc.stderr.write(text);
  else console.error(text.replace(/\n$/, ''));
}

type BufferCtor = { from(a: ArrayBufferLike, off: number, len: number): Uint8Array };
const NodeBuffer: BufferCtor | undefined = (globalThis as { Buffer?: BufferCtor }).Buffer;

/**
 * Bytes handed to a user: a Node Buffer where Buffer exists (callers of the Node API read
 * `stdoutBytes.toString('latin1')`), a plain Uint8Array elsewhere. The type says Buffer
 * because that is what Node users get; browser code must only use Uint8Array methods.
 */
export function userBytes(u: Uint8Array): Buffer {
  return (NodeBuffer !== undefined ? NodeBuffer.from(u.buffer, u.byteOffset, u.byteLength) : u) as Buffer;
}

/** Concatenates byte chunks. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8');
export const encodeUtf8 = (s: string): Uint8Array => utf8Encoder.encode(s);
export const decodeUtf8 = (u: Uint8Array): string => utf8Decoder.decode(u);

/** latin1 text (one char per byte, chars 0..255) to bytes. */
export function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

let moduleLoader: ((spec: string) => Promise<unknown>) | null = null;

/**
 * Installs how optional packages are loaded (the CLI does, from ./node.ts: with `require`,
 * because its bundle runs in a vm.Script, where `import()` needs an experimental loader
 * that makes Node print an ExperimentalWarning).
 */
export function setModuleLoader(load: (spec: string) => Promise<unknown>): void {
  moduleLoader = load;
}

/** Loads an optional package at run time (`import()` unless the host installed a loader). */
export function loadModule(spec: string): Promise<unknown> {
  return moduleLoader !== null ? moduleLoader(spec) : import(/* @vite-ignore */ spec);
}

