/**
 * Byte-addressed memory made of allocations that know their bounds (in the spirit of
 * CHERI/"fat pointer" checkers, and of Miri's allocation ids).
 *
 * A pointer is a JS number `id * 2^32 + offset` (null = 0, id 0 is never allocated), so
 * pointer arithmetic is plain double arithmetic and every access is checked exactly:
 * `offset + n <= size[id]` (freed allocations keep a negative size, so the same compare
 * rejects them). Each id maps to a DataView and a base offset inside it: globals and heap
 * blocks own an ArrayBuffer (base 0); allocas are carved from 1 MiB stack chunks, so a call
 * costs no buffer allocation. Freed ids sit in a FIFO quarantine before being reused, so a
 * recently freed block (or a returned frame's alloca) is still recognised as freed.
 *
 * Invariants: ids < 2^21 (pointers stay safe integers); rsize[id] ≥ 0 iff the allocation is
 * live and readable, wsize[id] likewise for writes (constant globals and functions have
 * wsize −1); `dv[id]` is never undefined for an id < next.
 */
import { Fault } from './errors.js';
import { MAX_SAFE, Wide } from './wide.js';

/** 2^32: the weight of the high word of a 64-bit value. */
export const TWO32 = 4294967296;
const INV32 = 1 / TWO32;
/**
 * Pointer = id · ID_UNIT + offset: 2^23 allocation ids (pointers stay below 2^53) of up to
 * 1 GiB each.
 */
export const ID_UNIT = 1073741824;
const INV_UNIT = 1 / ID_UNIT;
const OFF_MASK = ID_UNIT - 1;
const CHUNK = 1 << 20;
const MAX_IDS = 1 << 23;
const QUARANTINE = 2048;
/** Maximum stack (alloca) bytes: 1 GiB. */
const MAX_STACK_CHUNKS = 1024;

export const enum AK {
  None = 0,
  Global = 1,
  ConstGlobal = 2,
  Alloca = 3,
  Heap = 4,
  Function = 5,
  Freed = 6,
  DeadAlloca = 7,
  Extern = 8,
  File = 9,
  Label = 10,
}

const EMPTY_DV = new DataView(new ArrayBuffer(0));
const EMPTY_U8 = new Uint8Array(0);

export class Memory {
  // Per-id tables. dv/u8/base/rsize/wsize are plain arrays that only ever grow by push, so
  // compiled code may keep references to them for the machine's lifetime (typed arrays
  // would have to be replaced to grow).
  readonly dv: DataView[] = [];
  readonly u8: Uint8Array[] = [];
  readonly base: number[] = [];
  readonly rsize: number[] = [];
  readonly wsize: number[] = [];
  kind: Uint8Array;
  /** For messages: global / function name, or null. Also the function index of function ids. */
  label: (string | null)[] = [];
  fnIndex: Int32Array;
  /** Next never-used id. */
  next = 1;
  private ring: Int32Array = new Int32Array(QUARANTINE * 2);
  private ringHead = 0;
  private ringCount = 0;

  // stack
  private chunks: DataView[] = [];
  private chunkU8: Uint8Array[] = [];
  sc = 0;
  sp = 0;
  /** Stack slot → its permanent id (0: not created yet). */
  allocaIds: Int32Array = new Int32Array(1024);
  allocaTop = 0;

  /** Bytes currently held by heap blocks (for messages / limits). */
  heapBytes = 0;

  constructor() {
    const cap = 4096;
    this.kind = new Uint8Array(cap);
    this.fnIndex = new Int32Array(cap);
    this.dv.push(EMPTY_DV);
    this.u8.push(EMPTY_U8);
    this.label.push(null);
    this.base.push(0);
    this.rsize.push(-1);
    this.wsize.push(-1);
    this.newChunk();
  }

  private newChunk(): void {
    const buf = new ArrayBuffer(CHUNK);
    this.chunks.push(new DataView(buf));
    this.chunkU8.push(new Uint8Array(buf));
  }

  private grow(): void {
    const cap = this.kind.length * 2;
    const f = new Int32Array(cap);
    f.set(this.fnIndex);
    this.fnIndex = f;
    const k = new Uint8Array(cap);
    k.set(this.kind);
    this.kind = k;
  }

  private newId(): number {
    if (this.ringCount > QUARANTINE || (this.next >= MAX_IDS && this.ringCount > 0)) {
      const id = this.ring[this.ringHead];
      this.ringHead = (this.ringHead + 1) & (this.ring.length - 1);
      this.ringCount--;
      return id;
    }
    if (this.next >= MAX_IDS) throw new Fault(`out of memory: more than ${MAX_IDS - 1} live allocations`, -1);
    const id = this.next++;
    if (id >= this.kind.length) this.grow();
    this.dv.push(EMPTY_DV);
    this.u8.push(EMPTY_U8);
    this.label.push(null);
    this.base.push(0);
    this.rsize.push(0);
    this.wsize.push(0);
    return id;
  }

  private release(id: number): void {
    if (this.ringCount === this.ring.length) {
      // grow the ring (a power of two), keeping FIFO order
      const r = new Int32Array(this.ring.length * 2);
      for (let i = 0; i < this.ringCount; i++) r[i] = this.ring[(this.ringHead + i) & (this.ring.length - 1)];
      this.ring = r;
      this.ringHead = 0;
    }
    this.ring[(this.ringHead + this.ringCount) & (this.ring.length - 1)] = id;
    this.ringCount++;
  }

  /** An allocation with its own buffer (globals, heap blocks, FILE objects). */
  allocOwned(size: number, kind: AK, label: string | null): number {
    const id = this.newId();
    const buf = new ArrayBuffer(size);
    this.dv[id] = new DataView(buf);
    this.u8[id] = new Uint8Array(buf);
    this.base[id] = 0;
    this.rsize[id] = size;
    this.wsize[id] = kind === AK.ConstGlobal ? -1 : size;
    this.kind[id] = kind;
    this.label[id] = label;
    return id;
  }

  /** A zero-size allocation standing for a function (its address). */
  allocFunction(name: string, fnIndex: number): number {
    const id = this.newId();
    this.dv[id] = EMPTY_DV;
    this.u8[id] = EMPTY_U8;
    this.rsize[id] = 0;
    this.wsize[id] = -1;
    this.kind[id] = AK.Function;
    this.label[id] = name;
    this.fnIndex[id] = fnIndex;
    return id;
  }

  /** A zero-size allocation standing for a block's address (blockaddress, computed goto). */
  allocLabel(fnName: string): number {
    const id = this.newId();
    this.dv[id] = EMPTY_DV;
    this.u8[id] = EMPTY_U8;
    this.rsize[id] = 0;
    this.wsize[id] = -1;
    this.kind[id] = AK.Label;
    this.label[id] = fnName;
    return id;
  }

  /** A zero-size stand-in for an external global ssakit does not provide. */
  allocExtern(name: string): number {
    const id = this.newId();
    this.dv[id] = EMPTY_DV;
    this.u8[id] = EMPTY_U8;
    this.rsize[id] = 0;
    this.wsize[id] = -1;
    this.kind[id] = AK.Extern;
    this.label[id] = name;
    return id;
  }

  // ---- heap -----------------------------------------------------------------------------

  malloc(n: number): number {
    if (!(n >= 0) || n > ID_UNIT) return 0;
    if (this.heapBytes + n > 4 * 1024 * 1024 * 1024) return 0;
    this.heapBytes += n;
    return this.allocOwned(n, AK.Heap, null) * ID_UNIT;
  }

  /** Frees a heap block; returns an error message instead of freeing when the pointer is not one. */
  free(p: number): string | null {
    if (p === 0) return null;
    const id = Math.floor(p * INV_UNIT);
    const off = p - id * ID_UNIT;
    if (id <= 0 || id >= this.next) return `free of an invalid pointer ${hexPtr(p)}`;
    const k = this.kind[id];
    if (k === AK.Freed) return `double free of a ${-this.rsize[id] - 1}-byte heap block`;
    if (k !== AK.Heap) return `free of a pointer that malloc did not return (${this.describe(id)})`;
    if (off !== 0) return `free of a pointer into the middle of a ${this.rsize[id]}-byte heap block (offset ${off})`;
    const n = this.rsize[id];
    this.heapBytes -= n;
    this.rsize[id] = -n - 1;
    this.wsize[id] = -1;
    this.kind[id] = AK.Freed;
    this.dv[id] = EMPTY_DV;
    this.u8[id] = EMPTY_U8;
    this.release(id);
    return null;
  }

  /** Size of the live heap block `p` points to the start of, or −1. */
  heapSize(p: number): number {
    const id = Math.floor(p * INV_UNIT);
    if (id <= 0 || id >= this.next || p - id * ID_UNIT !== 0 || this.kind[id] !== AK.Heap) return -1;
    return this.rsize[id];
  }

  // ---- stack ----------------------------------------------------------------------------

  /**
   * Allocas live on a LIFO stack of slots; slot k always uses the same id (stackIds[k]), so a
   * call costs no id allocation and a return only marks its slots dead. A pointer to a dead
   * slot is reported as use after return until a later call reuses the slot (as on a real
   * stack, where the memory is reused too).
   */
  alloca(size: number, site: number): number {
    if (!(size >= 0 && size <= ID_UNIT)) throw new Fault(`alloca of ${size} bytes (more than 1 GiB)`, site);
    const top = this.allocaTop;
    if (top === this.allocaIds.length) {
      const a = new Int32Array(this.allocaIds.length * 2);
      a.set(this.allocaIds);
      this.allocaIds = a;
    }
    let id = this.allocaIds[top];
    if (id === 0) {
      id = this.newId();
      this.allocaIds[top] = id;
    }
    let sp = (this.sp + 15) & ~15;
    if (sp + size > CHUNK) {
      if (size > CHUNK) {
        const buf = new ArrayBuffer(size);
        this.dv[id] = new DataView(buf);
        this.u8[id] = new Uint8Array(buf);
        this.base[id] = 0;
        this.rsize[id] = size;
        this.wsize[id] = size;
        this.kind[id] = AK.Alloca;
        this.allocaTop = top + 1;
        return id * ID_UNIT;
      }
      this.sc++;
      if (this.sc >= MAX_STACK_CHUNKS) {
        this.sc--;
        throw new Fault('stack overflow: more than 1 GiB of allocas', site);
      }
      if (this.sc >= this.chunks.length) this.newChunk();
      sp = 0;
    }
    const dv = this.chunks[this.sc];
    if (this.dv[id] !== dv) {
      this.dv[id] = dv;
      this.u8[id] = this.chunkU8[this.sc];
    }
    this.base[id] = sp;
    this.sp = sp + size;
    this.rsize[id] = size;
    this.wsize[id] = size;
    this.kind[id] = AK.Alloca;
    this.allocaTop = top + 1;
    return id * ID_UNIT;
  }

  /** Releases every alloca made since the mark (a frame's return, or stackrestore). */
  popAllocas(mark: number, sc: number, sp: number): void {
    const ids = this.allocaIds;
    const rsize = this.rsize;
    for (let i = this.allocaTop - 1; i >= mark; i--) {
      const id = ids[i];
      rsize[id] = -rsize[id] - 1;
      this.wsize[id] = -1;
      this.kind[id] = AK.DeadAlloca;
      if (this.base[id] === 0 && this.dv[id].byteLength !== CHUNK) {
        // a dedicated buffer (large alloca): let it be collected
        this.dv[id] = EMPTY_DV;
        this.u8[id] = EMPTY_U8;
      }
    }
    this.allocaTop = mark;
    this.sc = sc;
    this.sp = sp;
  }

  // ---- checked access -------------------------------------------------------------------

  ldu8(p: number, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 1 <= this.rsize[id]) return this.dv[id].getUint8(this.base[id] + off);
    return this.fault(p, 1, 'load', site);
  }
  ld8(p: number, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 1 <= this.rsize[id]) return this.dv[id].getInt8(this.base[id] + off);
    return this.fault(p, 1, 'load', site);
  }
  ld16(p: number, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 2 <= this.rsize[id]) return this.dv[id].getInt16(this.base[id] + off, true);
    return this.fault(p, 2, 'load', site);
  }
  ld32(p: number, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 4 <= this.rsize[id]) return this.dv[id].getInt32(this.base[id] + off, true);
    return this.fault(p, 4, 'load', site);
  }
  ld64(p: number, site: number): Wide {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 8 <= this.rsize[id]) {
      const dv = this.dv[id];
      const o = this.base[id] + off;
      const r = dv.getInt32(o + 4, true) * TWO32 + dv.getUint32(o, true);
      if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
      return dv.getBigInt64(o, true);
    }
    return this.fault(p, 8, 'load', site);
  }
  ldp(p: number, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 8 <= this.rsize[id]) {
      const dv = this.dv[id];
      const o = this.base[id] + off;
      return dv.getUint32(o + 4, true) * TWO32 + dv.getUint32(o, true);
    }
    return this.fault(p, 8, 'load', site);
  }
  ldf32(p: number, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 4 <= this.rsize[id]) return this.dv[id].getFloat32(this.base[id] + off, true);
    return this.fault(p, 4, 'load', site);
  }
  ldf64(p: number, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 8 <= this.rsize[id]) return this.dv[id].getFloat64(this.base[id] + off, true);
    return this.fault(p, 8, 'load', site);
  }

  st8(p: number, v: number, site: number): void {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 1 <= this.wsize[id]) this.dv[id].setInt8(this.base[id] + off, v);
    else this.fault(p, 1, 'store', site);
  }
  st16(p: number, v: number, site: number): void {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 2 <= this.wsize[id]) this.dv[id].setInt16(this.base[id] + off, v, true);
    else this.fault(p, 2, 'store', site);
  }
  st32(p: number, v: number, site: number): void {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 4 <= this.wsize[id]) this.dv[id].setInt32(this.base[id] + off, v, true);
    else this.fault(p, 4, 'store', site);
  }
  st64(p: number, v: Wide, site: number): void {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 8 <= this.wsize[id]) {
      const dv = this.dv[id];
      const o = this.base[id] + off;
      if (typeof v === 'number') {
        dv.setUint32(o, v >>> 0, true);
        dv.setInt32(o + 4, Math.floor(v * INV32), true);
      } else dv.setBigInt64(o, v, true);
    } else this.fault(p, 8, 'store', site);
  }
  stp(p: number, v: number, site: number): void {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 8 <= this.wsize[id]) {
      const dv = this.dv[id];
      const o = this.base[id] + off;
      dv.setUint32(o, v >>> 0, true);
      dv.setUint32(o + 4, Math.floor(v * INV32) >>> 0, true);
    } else this.fault(p, 8, 'store', site);
  }
  stf32(p: number, v: number, site: number): void {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 4 <= this.wsize[id]) this.dv[id].setFloat32(this.base[id] + off, v, true);
    else this.fault(p, 4, 'store', site);
  }
  stf64(p: number, v: number, site: number): void {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + 8 <= this.wsize[id]) this.dv[id].setFloat64(this.base[id] + off, v, true);
    else this.fault(p, 8, 'store', site);
  }

  /** Resolved location of the last `check` (to avoid allocating a result object). */
  rdv: DataView = EMPTY_DV;
  ru8: Uint8Array = EMPTY_U8;

  /**
   * Checks that [p, p+n) is accessible (for writing when `write`) and returns the absolute
   * offset in `this.rdv` / `this.ru8`. `verb` names the access in the error message.
   */
  check(p: number, n: number, write: boolean, verb: string, site: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (off + n <= (write ? this.wsize[id] : this.rsize[id]) && n >= 0) {
      this.rdv = this.dv[id];
      this.ru8 = this.u8[id];
      return this.base[id] + off;
    }
    if (n === 0 && p !== 0) {
      this.rdv = EMPTY_DV;
      this.ru8 = EMPTY_U8;
      return 0;
    }
    return this.fault(p, n, verb, site);
  }

  /** Bytes available for reading from p to the end of its allocation (−1 when p is not readable). */
  readableFrom(p: number): number {
    const id = (p * INV_UNIT) | 0;
    const off = p & OFF_MASK;
    if (id <= 0 || id >= this.next) return -1;
    const s = this.rsize[id];
    if (s < 0 || off > s) return -1;
    return s - off;
  }

  memcpy(d: number, s: number, n: number, site: number, verb = 'memcpy'): void {
    if (n === 0) return;
    const so = this.check(s, n, false, verb + ' reading', site);
    const su = this.ru8;
    const dO = this.check(d, n, true, verb + ' writing', site);
    const du = this.ru8;
    if (su === du) du.copyWithin(dO, so, so + n);
    else du.set(su.subarray(so, so + n), dO);
  }
  memset(d: number, c: number, n: number, site: number): void {
    if (n === 0) return;
    const o = this.check(d, n, true, 'memset writing', site);
    this.ru8.fill(c & 255, o, o + n);
  }
  /** strlen with bounds checks: an unterminated string is an out-of-bounds read. */
  strlen(p: number, site: number, verb = 'strlen reading'): number {
    const avail = this.readableFrom(p);
    if (avail < 0) return this.fault(p, 1, verb, site);
    const o = this.check(p, 0, false, verb, site);
    const u = this.ru8;
    const id = (p * INV_UNIT) | 0;
    const start = this.base[id] + (p & OFF_MASK);
    const end = start + avail;
    const i = u.indexOf(0, start);
    if (i < 0 || i >= end) return this.fault(p, avail + 1, verb, site);
    void o;
    return i - start;
  }
  /** The NUL-terminated string at p as a latin1 string (one char per byte). */
  cstring(p: number, site: number, verb = 'reading a string'): string {
    // strings in constant globals (format strings, literals) cannot change: cache them
    const id = (p * INV_UNIT) | 0;
    const constant = id > 0 && id < this.next && this.kind[id] === AK.ConstGlobal;
    if (constant) {
      const c = this.constStrings.get(p);
      if (c !== undefined) return c;
    }
    const s = this.cstringUncached(p, site, verb);
    if (constant) this.constStrings.set(p, s);
    return s;
  }
  private readonly constStrings = new Map<number, string>();
  private cstringUncached(p: number, site: number, verb: string): string {
    const n = this.strlen(p, site, verb);
    const o = this.check(p, n, false, verb, site);
    return latin1(this.ru8, o, o + n);
  }
  /** Copies bytes (a latin1 string or byte array) to p. */
  writeBytes(p: number, bytes: Uint8Array, site: number, verb = 'writing'): void {
    if (bytes.length === 0) return;
    const o = this.check(p, bytes.length, true, verb, site);
    this.ru8.set(bytes, o);
  }
  readBytes(p: number, n: number, site: number, verb = 'reading'): Uint8Array {
    const o = this.check(p, n, false, verb, site);
    return this.ru8.slice(o, o + n);
  }

  // ---- errors ---------------------------------------------------------------------------

  /** Describes allocation `id` for messages: "a 40-byte alloca", "global @g", … */
  describe(id: number): string {
    const k = this.kind[id];
    const s = this.rsize[id];
    switch (k) {
      case AK.Global:
      case AK.ConstGlobal:
        return `${k === AK.ConstGlobal ? 'constant ' : ''}global @${this.label[id]} (${s} bytes)`;
      case AK.Alloca:
        return `a ${s}-byte alloca`;
      case AK.Heap:
        return `a ${s}-byte heap block`;
      case AK.Function:
        return `function @${this.label[id]}`;
      case AK.Freed:
        return `a freed ${-s - 1}-byte heap block`;
      case AK.DeadAlloca:
        return `a ${-s - 1}-byte alloca of a function that has returned`;
      case AK.Extern:
        return `external global @${this.label[id]}`;
      case AK.File:
        return `a FILE object`;
      case AK.Label:
        return `the address of a label in @${this.label[id]}`;
      default:
        return 'no allocation';
    }
  }

  /** Builds and throws the error for a failed access of n bytes at p. */
  fault(p: number, n: number, verb: string, site: number): never {
    throw new Fault(this.faultMessage(p, n, verb), site);
  }

  faultMessage(p: number, n: number, verb: string): string {
    const what = `${verb} of ${n} byte${n === 1 ? '' : 's'}`;
    const store = verb === 'store' || verb.endsWith('writing');
    const prep = store ? 'to' : 'from';
    if (typeof p !== 'number' || !Number.isFinite(p)) return `${what} ${prep} invalid pointer ${String(p)}`;
    if (p === 0) return `${what} ${prep} null pointer`;
    let id = Math.floor(p * INV_UNIT);
    let off = p - id * ID_UNIT;
    if (off >= ID_UNIT / 2 && id + 1 > 0 && id + 1 < this.next) {
      id++;
      off -= ID_UNIT;
    }
    if (id === 0 && off >= 0) return `${what} ${prep} null pointer + ${off}`;
    if (id <= 0 || id >= this.next) return `${what} ${prep} invalid pointer ${hexPtr(p)}`;
    const k = this.kind[id];
    const s = this.rsize[id];
    switch (k) {
      case AK.Freed:
        return `use after free: ${what} ${prep} a freed ${-s - 1}-byte heap block (offset ${off})`;
      case AK.DeadAlloca:
        return `use after return: ${what} ${prep} a ${-s - 1}-byte alloca of a function that has returned (offset ${off})`;
      case AK.Function:
        return `${what} ${prep} function @${this.label[id]} (code is not data)`;
      case AK.Label:
        return `${what} ${prep} the address of a label in @${this.label[id]} (code is not data)`;
      case AK.Extern:
        return `${what} ${prep} external global @${this.label[id]}, which ssakit does not provide`;
      case AK.ConstGlobal:
        if (store && off >= 0 && off + n <= s) return `${what} to constant global @${this.label[id]} (offset ${off})`;
        return `${what} out of bounds of ${this.describe(id)} (offset ${off})`;
      case AK.None:
        return `${what} ${prep} invalid pointer ${hexPtr(p)}`;
      default:
        return `${what} out of bounds of ${this.describe(id)} (offset ${off})`;
    }
  }
}

export function hexPtr(p: number): string {
  if (p < 0) return '-0x' + (-p).toString(16);
  return '0x' + p.toString(16);
}

export function latin1(u: Uint8Array, start: number, end: number): string {
  let s = '';
  if (end - start <= 64) {
    for (let i = start; i < end; i++) s += String.fromCharCode(u[i]);
    return s;
  }
  for (let i = start; i < end; i += 8192) {
    s += String.fromCharCode.apply(null, u.subarray(i, Math.min(end, i + 8192)) as unknown as number[]);
  }
  return s;
}
