/**
 * Constants. Scalars (integers, floats, null, undef, poison, zeroinitializer) and
 * constant expressions are interned: asking twice for the same constant returns the
 * same object, so passes may compare constants with `===`.
 *
 * Integers are kept as `bigint` in signed, width-normalised form (i1 true is -1n, as
 * `BigInt.asIntN(1, 1n)`); `zext()` gives the unsigned view.
 */
import { Type, TypeKind, arrayType as arrayOf, i1, intType, typeId, ptr as ptrTy } from './types.js';
import { Value, ValueKind } from './value.js';
import type { Opcode } from './opcodes.js';

export class Constant extends Value {}

export class ConstantInt extends Constant {
  /**
   * `value` as a JS number when it is a safe integer (|v| < 2^53), else NaN: the checks
   * simplifiers make all the time (zero? one? all ones?) compare small integers instead of
   * calling into BigInt comparison.
   */
  readonly num: number;

  private constructor(
    type: Type,
    /** Signed value, normalised to the type's width. */
    readonly value: bigint,
  ) {
    super(ValueKind.ConstantInt, type);
    const n = Number(value);
    this.num = Number.isSafeInteger(n) && BigInt(n) === value ? n : NaN;
  }

  private static cache = new Map<number, Map<bigint, ConstantInt>>();
  /** Per width: constants -128..1023 by index (the common case), and other safe integers by number. */
  private static small: ConstantInt[][] = [];
  private static byNumber: Map<number, ConstantInt>[] = [];

  static get(type: Type, v: bigint | number): ConstantInt {
    if (typeof v === 'number' && Number.isSafeInteger(v)) return ConstantInt.getNumber(type, v);
    return ConstantInt.getBig(type, BigInt(v));
  }

  /** Fast path for safe-integer values (no bigint arithmetic unless the value needs wrapping). */
  static getNumber(type: Type, v: number): ConstantInt {
    const bits = type.bits;
    if (bits >= 54 || (v >= -(2 ** (bits - 1)) && v < 2 ** (bits - 1))) {
      if (v >= -128 && v < 1024) {
        let arr = ConstantInt.small[bits];
        if (arr === undefined) arr = ConstantInt.small[bits] = [];
        const c = arr[v + 128];
        if (c !== undefined) return c;
        return (arr[v + 128] = ConstantInt.getBig(type, BigInt(v)));
      }
      let m = ConstantInt.byNumber[bits];
      if (m === undefined) m = ConstantInt.byNumber[bits] = new Map();
      let c = m.get(v);
      if (c === undefined) m.set(v, (c = ConstantInt.getBig(type, BigInt(v))));
      return c;
    }
    return ConstantInt.getBig(type, BigInt(v));
  }

  private static getBig(type: Type, v: bigint): ConstantInt {
    const bits = type.bits;
    const norm = BigInt.asIntN(bits, v);
    let m = ConstantInt.cache.get(bits);
    if (m === undefined) ConstantInt.cache.set(bits, (m = new Map()));
    let c = m.get(norm);
    if (c === undefined) m.set(norm, (c = new ConstantInt(type, norm)));
    return c;
  }

  static true(): ConstantInt { return ConstantInt.get(i1, -1n); }
  static false(): ConstantInt { return ConstantInt.get(i1, 0n); }
  static bool(b: boolean): ConstantInt { return ConstantInt.get(i1, b ? -1n : 0n); }

  get bits(): number { return this.type.bits; }
  /** The value read as unsigned. */
  zext(): bigint { return BigInt.asUintN(this.type.bits, this.value); }
  /** The signed value as a JS number (exact for |v| < 2^53). */
  toNumber(): number { return Number.isNaN(this.num) ? Number(this.value) : this.num; }
  isZero(): boolean { return this.num === 0; }
  isOne(): boolean { return this.num === (this.type.bits === 1 ? -1 : 1); }
  isAllOnes(): boolean { return this.num === -1; }

  private text: string | null = null;
  /** The value as LLVM prints it (`-5`, `true`); cached, since interned constants print often. */
  toText(): string {
    if (this.text === null) this.text = this.type.bits === 1 ? (this.value === 0n ? 'false' : 'true') : this.value.toString();
    return this.text;
  }
}

export class ConstantFP extends Constant {
  private constructor(type: Type, readonly value: number) {
    super(ValueKind.ConstantFP, type);
  }
  private static cache = new Map<number, Map<string, ConstantFP>>();
  /** For `float`, `v` is rounded to single precision. */
  static get(type: Type, v: number): ConstantFP {
    if (type.kind === TypeKind.Float) v = Math.fround(v);
    const tid = typeId(type);
    let m = ConstantFP.cache.get(tid);
    if (m === undefined) ConstantFP.cache.set(tid, (m = new Map()));
    // Key by bit pattern so that -0.0 and the NaN payloads stay distinct.
    const key = fpBitsKey(v);
    let c = m.get(key);
    if (c === undefined) m.set(key, (c = new ConstantFP(type, v)));
    return c;
  }
  isZero(): boolean { return this.value === 0 && 1 / this.value > 0; }
}

const fpBuf = new DataView(new ArrayBuffer(8));
function fpBitsKey(v: number): string {
  fpBuf.setFloat64(0, v);
  return fpBuf.getUint32(0).toString(16) + ':' + fpBuf.getUint32(4).toString(16);
}

function internByType<T extends Constant>(cache: Map<Type, T>, type: Type, make: () => T): T {
  let c = cache.get(type);
  if (c === undefined) cache.set(type, (c = make()));
  return c;
}

export class ConstantNull extends Constant {
  private static cache = new Map<Type, ConstantNull>();
  private constructor(type: Type) { super(ValueKind.ConstantNull, type); }
  static get(type: Type = ptrTy): ConstantNull { return internByType(ConstantNull.cache, type, () => new ConstantNull(type)); }
}

export class UndefValue extends Constant {
  private static cache = new Map<Type, UndefValue>();
  private constructor(type: Type) { super(ValueKind.Undef, type); }
  static get(type: Type): UndefValue { return internByType(UndefValue.cache, type, () => new UndefValue(type)); }
}

export class PoisonValue extends Constant {
  private static cache = new Map<Type, PoisonValue>();
  private constructor(type: Type) { super(ValueKind.Poison, type); }
  static get(type: Type): PoisonValue { return internByType(PoisonValue.cache, type, () => new PoisonValue(type)); }
}

/** `zeroinitializer` of any type. */
export class ConstantZero extends Constant {
  private static cache = new Map<Type, ConstantZero>();
  private constructor(type: Type) { super(ValueKind.ConstantZero, type); }
  static get(type: Type): ConstantZero { return internByType(ConstantZero.cache, type, () => new ConstantZero(type)); }
}

/** `[ i32 1, i32 2 ]`, `{ i32 1, ptr null }`, `< i32 1, i32 2 >`. Not interned. */
export class ConstantAggregate extends Constant {
  constructor(kind: ValueKind.ConstantArray | ValueKind.ConstantStruct | ValueKind.ConstantVector, type: Type, readonly elements: Constant[]) {
    super(kind, type);
  }
}

/** `c"text\00"`: an array of i8 given as bytes. Not interned. */
export class ConstantString extends Constant {
  constructor(type: Type, readonly bytes: Uint8Array) {
    super(ValueKind.ConstantString, type);
  }
  static fromString(s: string, nulTerminate = true): ConstantString {
    const enc = new TextEncoder().encode(s);
    const bytes = new Uint8Array(enc.length + (nulTerminate ? 1 : 0));
    bytes.set(enc);
    return new ConstantString(arrayOf(intType(8), bytes.length), bytes);
  }
}

/**
 * A constant expression: `getelementptr inbounds (i8, ptr @g, i64 4)`, `ptrtoint (ptr @f to i64)`,
 * `sub (i64 ..., i64 ...)`. Interned by opcode, flags, type and operands.
 */
export class ConstantExpr extends Constant {
  /** Interning tables: a numeric hash of the fields → the expressions with that hash. */
  private static cache = new Map<number, ConstantExpr[]>();
  private constructor(
    readonly opcode: Opcode,
    type: Type,
    readonly operands: Constant[],
    readonly flags: number,
    /** Source element type of a GEP. */
    readonly sourceType: Type | null,
    /** Predicate of an icmp/fcmp. */
    readonly predicate: number,
  ) {
    super(ValueKind.ConstantExpr, type);
  }
  /**
   * Expressions over a global (`getelementptr (@g, ...)`) are interned per global, in a
   * WeakMap: a process-wide table would keep every module that ever made one alive.
   */
  private static byGlobal = new WeakMap<Value, Map<number, ConstantExpr[]>>();
  /** The global this expression is built on (directly or through a nested expression), if any. */
  private anchor: Value | null = null;

  static get(opcode: Opcode, type: Type, operands: Constant[], flags = 0, sourceType: Type | null = null, predicate = 0): ConstantExpr {
    // hash the fields (no key string: the parser makes one of these per global reference in
    // clang's output, and building keys was a visible share of parsing)
    let h = Math.imul(opcode + 1, 0x9e3779b1) ^ typeId(type);
    h = Math.imul(h ^ flags, 0x85ebca6b) ^ (sourceType !== null ? typeId(sourceType) : 0);
    h = Math.imul(h ^ predicate, 0xc2b2ae35);
    let anchor: Value | null = null;
    for (let k = 0; k < operands.length; k++) {
      const o = operands[k];
      h = Math.imul(h ^ o.uid, 0x27d4eb2f) + k;
      if (anchor === null) {
        if (o.kind === ValueKind.Function || o.kind === ValueKind.GlobalVariable || o.kind === ValueKind.GlobalAlias || o.kind === ValueKind.BlockAddress) anchor = o;
        else if (o.kind === ValueKind.ConstantExpr) anchor = (o as ConstantExpr).anchor;
      }
    }
    let table = ConstantExpr.cache;
    if (anchor !== null) {
      let t = ConstantExpr.byGlobal.get(anchor);
      if (t === undefined) ConstantExpr.byGlobal.set(anchor, (t = new Map()));
      table = t;
    }
    let bucket = table.get(h);
    if (bucket === undefined) table.set(h, (bucket = []));
    for (const c of bucket) {
      if (c.opcode !== opcode || c.type !== type || c.flags !== flags || c.sourceType !== sourceType || c.predicate !== predicate) continue;
      const ops = c.operands;
      if (ops.length !== operands.length) continue;
      let same = true;
      for (let k = 0; k < ops.length && same; k++) same = ops[k] === operands[k];
      if (same) return c;
    }
    const c = new ConstantExpr(opcode, type, operands, flags, sourceType, predicate);
    c.anchor = anchor;
    bucket.push(c);
    return c;
  }
}

/**
 * `blockaddress(@f, %bb)`: the address of a block, for computed goto. `block` is the
 * BasicBlock once the parser has read @f's body (until then, a placeholder naming it).
 */
export class BlockAddress extends Constant {
  private blk: Value;
  constructor(
    readonly fn: Value,
    block: Value,
  ) {
    super(ValueKind.BlockAddress, ptrTy);
    this.blk = block;
    markAddressTaken(block);
  }
  get block(): Value {
    return this.blk;
  }
  set block(b: Value) {
    this.blk = b;
    markAddressTaken(b);
  }
  /**
   * The block when it is still in a function; null once it was deleted (LLVM replaces the
   * constant by `inttoptr (i32 1 to ptr)` then; the printer and interpreter do the same).
   */
  liveBlock(): Value | null {
    const b = this.blk;
    return b.kind === ValueKind.BasicBlock && (b as unknown as { parent: unknown }).parent === null ? null : b;
  }
}

/** Sets BasicBlock.addressTaken (constants.ts cannot import basic-block.ts: it imports us). */
function markAddressTaken(b: Value): void {
  if (b.kind === ValueKind.BasicBlock) (b as unknown as { addressTaken: boolean }).addressTaken = true;
}

/**
 * A metadata operand of a call (`metadata !5`, `metadata i32 0`): `md` is the metadata
 * (see metadata.ts). `text` is only for the label of a blockaddress read before its function.
 */
export class MetadataValue extends Constant {
  constructor(
    type: Type,
    readonly text: string,
    readonly md: import('./metadata.js').Metadata | null = null,
  ) {
    super(ValueKind.Metadata, type);
  }
}

/** `asm "..."`: inline assembly, kept as text; the interpreter cannot run it. */
export class InlineAsmValue extends Constant {
  constructor(type: Type, readonly text: string) {
    super(ValueKind.InlineAsm, type);
  }
}

export function isConstantInt(v: Value): v is ConstantInt {
  return v.kind === ValueKind.ConstantInt;
}
export function isConstantFP(v: Value): v is ConstantFP {
  return v.kind === ValueKind.ConstantFP;
}
export function isUndefOrPoison(v: Value): boolean {
  return v.kind === ValueKind.Undef || v.kind === ValueKind.Poison;
}
/** Whether `v` is a constant with no use list (not a global). */
export function isPlainConstant(v: Value): v is Constant {
  return v.kind >= ValueKind.ConstantInt;
}
/** The null value of a type: 0, 0.0, null or zeroinitializer. */
export function nullValue(type: Type): Constant {
  switch (type.kind) {
    case TypeKind.Int:
      return ConstantInt.get(type, 0n);
    case TypeKind.Ptr:
      return ConstantNull.get(type);
    case TypeKind.Half:
    case TypeKind.BFloat:
    case TypeKind.Float:
    case TypeKind.Double:
    case TypeKind.X86_FP80:
    case TypeKind.FP128:
      return ConstantFP.get(type, 0);
    default:
      return ConstantZero.get(type);
  }
}

/**
 * The global values (variables, functions, aliases) constant `c` mentions, through constant
 * expressions, aggregates and block addresses; `seen` skips shared subexpressions (iterative).
 */
export function globalValuesIn(c: Value, out: Set<Value>, seen: Set<Value> = new Set()): void {
  const stack: Value[] = [c];
  while (stack.length > 0) {
    const v = stack.pop()!;
    if (v.kind === ValueKind.GlobalVariable || v.kind === ValueKind.Function || v.kind === ValueKind.GlobalAlias) {
      out.add(v);
      continue;
    }
    if (seen.has(v)) continue;
    seen.add(v);
    if (v instanceof ConstantExpr) for (const e of v.operands) stack.push(e);
    else if (v instanceof ConstantAggregate) for (const e of v.elements) stack.push(e);
    else if (v instanceof BlockAddress) stack.push(v.fn);
  }
}
