/**
 * IR types, LLVM's type system restricted to what C and SysY need.
 *
 * Invariants:
 *  - Literal types are interned: two structurally equal literal types are the same
 *    object, so type equality is `===`. Named structs are identified by their object
 *    (each module owns its named structs).
 *  - Pointers are opaque (`ptr`, address space 0 unless stated); legacy typed pointers
 *    such as `i32*` are read as `ptr` by the parser.
 */
import { encodeNameBytes, quoteBytes } from '../util/name-bytes.js';

export enum TypeKind {
  Void,
  Label,
  Metadata,
  Token,
  Int,
  Half,
  BFloat,
  Float,
  Double,
  X86_FP80,
  FP128,
  Ptr,
  Array,
  Vector,
  Struct,
  Function,
}

export class Type {
  /** Integer width, or pointer address space. */
  readonly bits: number;
  /** Element type of arrays and vectors, return type of functions. */
  readonly elem: Type | null;
  /** Length of arrays and vectors. */
  readonly count: number;
  /** Struct fields, function parameters. */
  members: Type[];
  readonly vararg: boolean;
  packed: boolean;
  /** Name of an identified struct (`%struct.S`), without `%`. */
  readonly name: string | null;
  /** An identified struct declared `opaque` (no body yet). */
  opaque: boolean;
  /** Memoized printed form of literal types. */
  private str: string | null = null;

  constructor(
    readonly kind: TypeKind,
    bits = 0,
    elem: Type | null = null,
    count = 0,
    members: Type[] = [],
    vararg = false,
    packed = false,
    name: string | null = null,
  ) {
    this.bits = bits;
    this.elem = elem;
    this.count = count;
    this.members = members;
    this.vararg = vararg;
    this.packed = packed;
    this.name = name;
    this.opaque = false;
  }

  isVoid(): boolean { return this.kind === TypeKind.Void; }
  isInt(bits?: number): boolean { return this.kind === TypeKind.Int && (bits === undefined || this.bits === bits); }
  isFloatingPoint(): boolean { return this.kind >= TypeKind.Half && this.kind <= TypeKind.FP128; }
  isPtr(): boolean { return this.kind === TypeKind.Ptr; }
  isArray(): boolean { return this.kind === TypeKind.Array; }
  isVector(): boolean { return this.kind === TypeKind.Vector; }
  isStruct(): boolean { return this.kind === TypeKind.Struct; }
  isFunction(): boolean { return this.kind === TypeKind.Function; }
  isAggregate(): boolean { return this.kind === TypeKind.Array || this.kind === TypeKind.Struct; }
  isLabel(): boolean { return this.kind === TypeKind.Label; }
  /** First-class types can be SSA values. */
  isFirstClass(): boolean { return this.kind !== TypeKind.Void && this.kind !== TypeKind.Function && this.kind !== TypeKind.Label; }
  /** The scalar type of a vector, or the type itself. */
  scalarType(): Type { return this.kind === TypeKind.Vector ? this.elem! : this; }

  /** The return type of a function type. */
  get returnType(): Type { return this.elem!; }
  get params(): Type[] { return this.members; }

  toString(): string {
    if (this.str !== null) return this.str;
    if (this.name !== null && this.kind === TypeKind.Struct) return '%' + quoteIdentifier(this.name);
    // the nested types first, bottom-up with an explicit stack (types nest 10,000 deep), so
    // each spelling below only reads its parts' cached ones
    const stack: Type[] = [this];
    while (stack.length > 0) {
      const t = stack[stack.length - 1];
      if (t.str !== null) {
        stack.pop();
        continue;
      }
      let ready = true;
      const parts = t.elem !== null ? [t.elem, ...t.members] : t.members;
      for (const p of parts) {
        if (p.str === null && !(p.name !== null && p.kind === TypeKind.Struct)) {
          stack.push(p);
          ready = false;
        }
      }
      if (!ready) continue;
      stack.pop();
      t.str = t.spell();
    }
    return this.str!;
  }

  /** This type's spelling, its parts' already known. */
  private spell(): string {
    let s: string;
    switch (this.kind) {
      case TypeKind.Void: s = 'void'; break;
      case TypeKind.Label: s = 'label'; break;
      case TypeKind.Metadata: s = 'metadata'; break;
      case TypeKind.Token: s = 'token'; break;
      case TypeKind.Int: s = 'i' + this.bits; break;
      case TypeKind.Half: s = 'half'; break;
      case TypeKind.BFloat: s = 'bfloat'; break;
      case TypeKind.Float: s = 'float'; break;
      case TypeKind.Double: s = 'double'; break;
      case TypeKind.X86_FP80: s = 'x86_fp80'; break;
      case TypeKind.FP128: s = 'fp128'; break;
      case TypeKind.Ptr: s = this.bits === 0 ? 'ptr' : `ptr addrspace(${this.bits})`; break;
      case TypeKind.Array: s = `[${this.count} x ${this.elem!.toString()}]`; break;
      case TypeKind.Vector: s = `<${this.count} x ${this.elem!.toString()}>`; break;
      case TypeKind.Struct:
        s = structBody(this);
        break;
      case TypeKind.Function: {
        const ps = this.members.map((p) => p.toString());
        if (this.vararg) ps.push('...');
        s = `${this.elem!.toString()} (${ps.join(', ')})`;
        break;
      }
    }
    return s;
  }
}

/** The `{ i32, i64 }` / `<{ i8 }>` body of a struct type. */
export function structBody(t: Type): string {
  if (t.opaque) return 'opaque';
  const inner = t.members.length === 0 ? '{}' : `{ ${t.members.map((m) => m.toString()).join(', ')} }`;
  return t.packed ? `<${inner}>` : inner;
}

const SIMPLE_ID = /^[-a-zA-Z$._][-a-zA-Z$._0-9]*$/;
/** Prints an identifier body (after `%` or `@`), quoting it when LLVM requires. */
export function quoteIdentifier(name: string): string {
  // a plain identifier as is; otherwise quoted and escaped by bytes as LLVM does (non-ASCII as UTF-8 bytes)
  return SIMPLE_ID.test(name) ? name : quoteBytes(encodeNameBytes(name));
}

// ---- interning -------------------------------------------------------------

const intTypes = new Map<number, Type>();
const ptrTypes = new Map<number, Type>();
const arrayTypes = new Map<Type, Map<number, Type>>();
const vectorTypes = new Map<Type, Map<number, Type>>();
const literalStructs = new Map<string, Type>();
const functionTypes = new Map<string, Type>();
let typeSerial = 0;
const typeIds = new WeakMap<Type, number>();

/** A small integer that identifies a type object, for building intern keys. */
export function typeId(t: Type): number {
  let id = typeIds.get(t);
  if (id === undefined) {
    id = ++typeSerial;
    typeIds.set(t, id);
  }
  return id;
}

export function intType(bits: number): Type {
  let t = intTypes.get(bits);
  if (t === undefined) {
    if (!(bits >= 1 && bits <= 8388608)) throw new RangeError(`bad integer width ${bits}`);
    t = new Type(TypeKind.Int, bits);
    intTypes.set(bits, t);
  }
  return t;
}

export function ptrType(addrSpace = 0): Type {
  let t = ptrTypes.get(addrSpace);
  if (t === undefined) {
    t = new Type(TypeKind.Ptr, addrSpace);
    ptrTypes.set(addrSpace, t);
  }
  return t;
}

export function arrayType(elem: Type, count: number): Type {
  let m = arrayTypes.get(elem);
  if (m === undefined) arrayTypes.set(elem, (m = new Map()));
  let t = m.get(count);
  if (t === undefined) m.set(count, (t = new Type(TypeKind.Array, 0, elem, count)));
  return t;
}

export function vectorType(elem: Type, count: number): Type {
  let m = vectorTypes.get(elem);
  if (m === undefined) vectorTypes.set(elem, (m = new Map()));
  let t = m.get(count);
  if (t === undefined) m.set(count, (t = new Type(TypeKind.Vector, 0, elem, count)));
  return t;
}

/** A literal (anonymous, structurally uniqued) struct type. */
export function structType(members: Type[], packed = false): Type {
  const key = (packed ? 'p' : 's') + members.map(typeId).join(',');
  let t = literalStructs.get(key);
  if (t === undefined) literalStructs.set(key, (t = new Type(TypeKind.Struct, 0, null, 0, members.slice(), false, packed)));
  return t;
}

/** A new identified struct type; the module that owns it keeps it by name. */
export function namedStructType(name: string, members: Type[] | null, packed = false): Type {
  const t = new Type(TypeKind.Struct, 0, null, 0, members ?? [], false, packed, name);
  t.opaque = members === null;
  return t;
}

export function functionType(ret: Type, params: Type[], vararg = false): Type {
  const key = `${typeId(ret)}(${params.map(typeId).join(',')}${vararg ? ',...' : ''})`;
  let t = functionTypes.get(key);
  if (t === undefined) functionTypes.set(key, (t = new Type(TypeKind.Function, 0, ret, 0, params.slice(), vararg)));
  return t;
}

export const voidType = new Type(TypeKind.Void);
export const labelType = new Type(TypeKind.Label);
export const metadataType = new Type(TypeKind.Metadata);
export const tokenType = new Type(TypeKind.Token);
export const halfType = new Type(TypeKind.Half, 16);
export const bfloatType = new Type(TypeKind.BFloat, 16);
export const floatType = new Type(TypeKind.Float, 32);
export const doubleType = new Type(TypeKind.Double, 64);
export const x86fp80Type = new Type(TypeKind.X86_FP80, 80);
export const fp128Type = new Type(TypeKind.FP128, 128);
export const i1 = intType(1);
export const i8 = intType(8);
export const i16 = intType(16);
export const i32 = intType(32);
export const i64 = intType(64);
export const ptr = ptrType(0);

/** Whether values of `t` have a size (can be allocated, loaded, stored). Iterative. */
export function isSized(t: Type): boolean {
  const k = t.kind;
  if (k === TypeKind.Int || k === TypeKind.Ptr || k === TypeKind.Float || k === TypeKind.Double) return true;
  const stack: Type[] = [t];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === TypeKind.Int || x.kind === TypeKind.Ptr || x.isFloatingPoint()) continue;
    switch (x.kind) {
      case TypeKind.Array:
      case TypeKind.Vector:
        stack.push(x.elem!);
        break;
      case TypeKind.Struct:
        if (x.opaque) return false;
        for (const m of x.members) stack.push(m);
        break;
      default:
        return false;
    }
  }
  return true;
}

/**
 * One index step into `t`, as LLVM's GetElementPtrInst::getTypeAtIndex: the element of an
 * array or a vector, whatever the index (a GEP index into an array is not bounded by its
 * length), or member `index` of a struct (the index must be known and in range). Null when
 * `t` cannot be indexed so. Every GEP walk (the parser, the verifier, constant folding,
 * instcombine) steps with it.
 */
export function gepStepType(t: Type, index: number | null): Type | null {
  if (t.kind === TypeKind.Array || t.kind === TypeKind.Vector) return t.elem!;
  if (t.kind === TypeKind.Struct && index !== null && index >= 0 && index < t.members.length) return t.members[index];
  return null;
}

/**
 * One index step of extractvalue and insertvalue (LLVM's ExtractValueInst::getIndexedType):
 * element `index` of an array or member `index` of a struct, in range; null otherwise.
 */
export function aggregateStepType(t: Type, index: number): Type | null {
  if (index < 0) return null;
  if (t.kind === TypeKind.Array) return index < t.count ? t.elem! : null;
  if (t.kind === TypeKind.Struct) return index < t.members.length ? t.members[index] : null;
  return null;
}
