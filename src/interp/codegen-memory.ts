/**
 * The code generator's memory accesses: loads, stores and getelementptr as inline JS
 * (split from codegen.ts).
 *
 * A pointer is the double id · 2^30 + offset (memory.ts); an access is checked inline
 * (`off + n <= size[id]`, then a DataView read or write) and falls back to the Memory
 * method, which re-checks and raises the fault, so inline and slow paths fault alike.
 * An access through a GEP of a global whose id is known at code generation indexes that
 * allocation's view directly (GlobalAccess).
 */
import { ConstantInt } from '../ir/constants.js';
import type { Instruction } from '../ir/instruction.js';
import { allocSize, storeSize, structLayout } from '../ir/layout.js';
import { Opcode } from '../ir/opcodes.js';
import { Type, TypeKind } from '../ir/types.js';
import { Value, ValueKind } from '../ir/value.js';
import type { Gen } from './codegen-state.js';
import { numLit } from './js-int.js';
import { ID_UNIT } from './memory.js';

// ---- memory --------------------------------------------------------------------------------------

const INV32 = '2.3283064365386963e-10';
/** Pointer decoding (memory.ts: pointer = id · 2^30 + offset). */
const INV_UNIT = '9.313225746154785e-10';
const OFF_MASK = '1073741823';

/**
 * Inline bounds-checked access: `off + n <= size[id]` then a DataView access, else the
 * Memory method (which re-checks and raises the fault). Inline code keeps pointer doubles
 * unboxed (a call would box them).
 */
function inlineRead(p: string, n: number, body: string, fallback: string, site: number, ga: GlobalAccess | null = null): string {
  if (ga !== null) return `((to = ${ga.off}) >= 0 && to + ${n} <= RS[${ga.k}] ? ${body.replaceAll('[ti]', `[${ga.k}]`)} : M.${fallback}(${ga.base} + to, ${site}))`;
  return `((to = ${p} & ${OFF_MASK}) + ${n} <= RS[ti = (${p} * ${INV_UNIT}) | 0] ? ${body} : M.${fallback}(${p}, ${site}))`;
}
function inlineWrite(p: string, n: number, body: string, fallback: string, v: string, site: number, pre = '', ga: GlobalAccess | null = null): string {
  if (ga !== null) return `if ((to = ${ga.off}) >= 0 && ${pre}to + ${n} <= WS[${ga.k}]) { ${body.replaceAll('[ti]', `[${ga.k}]`)} } else M.${fallback}(${ga.base} + to, ${v}, ${site});`;
  return `if (${pre}(to = ${p} & ${OFF_MASK}) + ${n} <= WS[ti = (${p} * ${INV_UNIT}) | 0]) { ${body} } else M.${fallback}(${p}, ${v}, ${site});`;
}

export function loadExpr(g: Gen, t: Type, p: string, site: number, ga: GlobalAccess | null = null): string {
  const inl = g.inlineMemory;
  switch (t.kind) {
    case TypeKind.Int:
      switch (t.bits) {
        case 1: return inl ? `(${inlineRead(p, 1, 'DV[ti].getUint8(BS[ti] + to)', 'ldu8', site, ga)} & 1)` : `(M.ldu8(${p}, ${site}) & 1)`;
        case 8: return inl ? inlineRead(p, 1, 'DV[ti].getInt8(BS[ti] + to)', 'ld8', site, ga) : `M.ld8(${p}, ${site})`;
        case 16: return inl ? inlineRead(p, 2, 'DV[ti].getInt16(BS[ti] + to, true)', 'ld16', site, ga) : `M.ld16(${p}, ${site})`;
        case 32: return inl ? inlineRead(p, 4, 'DV[ti].getInt32(BS[ti] + to, true)', 'ld32', site, ga) : `M.ld32(${p}, ${site})`;
        case 64:
          return inl
            ? inlineRead(p, 8, '((tr = DV[ti].getInt32((tb = BS[ti] + to) + 4, true) * 4294967296 + DV[ti].getUint32(tb, true)) <= 9007199254740991 && tr >= -9007199254740991 ? tr : DV[ti].getBigInt64(tb, true))', 'ld64', site, ga)
            : `M.ld64(${p}, ${site})`;
        default: break;
      }
      break;
    case TypeKind.Ptr:
      return inl ? inlineRead(p, 8, '(DV[ti].getUint32((tb = BS[ti] + to) + 4, true) * 4294967296 + DV[ti].getUint32(tb, true))', 'ldp', site, ga) : `M.ldp(${p}, ${site})`;
    case TypeKind.Float:
      return inl ? inlineRead(p, 4, 'DV[ti].getFloat32(BS[ti] + to, true)', 'ldf32', site, ga) : `M.ldf32(${p}, ${site})`;
    case TypeKind.Double:
      return inl ? inlineRead(p, 8, 'DV[ti].getFloat64(BS[ti] + to, true)', 'ldf64', site, ga) : `M.ldf64(${p}, ${site})`;
    default:
      break;
  }
  return `loadT(M, ${p}, ${g.bind(t)}, ${storeSize(t)}, ${site})`;
}

export function storeStmt(g: Gen, t: Type, p: string, v: string, site: number, ga: GlobalAccess | null = null): string {
  const inl = g.inlineMemory;
  switch (t.kind) {
    case TypeKind.Int:
      switch (t.bits) {
        case 1:
        case 8: return inl ? inlineWrite(p, 1, `DV[ti].setInt8(BS[ti] + to, ${v});`, 'st8', v, site, '', ga) : `M.st8(${p}, ${v}, ${site});`;
        case 16: return inl ? inlineWrite(p, 2, `DV[ti].setInt16(BS[ti] + to, ${v}, true);`, 'st16', v, site, '', ga) : `M.st16(${p}, ${v}, ${site});`;
        case 32: return inl ? inlineWrite(p, 4, `DV[ti].setInt32(BS[ti] + to, ${v}, true);`, 'st32', v, site, '', ga) : `M.st32(${p}, ${v}, ${site});`;
        case 64:
          return inl
            ? inlineWrite(p, 8, `tb = BS[ti] + to; DV[ti].setUint32(tb, ${v} >>> 0, true); DV[ti].setInt32(tb + 4, Math.floor(${v} * ${INV32}), true);`, 'st64', v, site, `typeof ${v} === 'number' && `, ga)
            : `M.st64(${p}, ${v}, ${site});`;
        default: break;
      }
      break;
    case TypeKind.Ptr:
      return inl
        ? inlineWrite(p, 8, `tb = BS[ti] + to; DV[ti].setUint32(tb, ${v} >>> 0, true); DV[ti].setUint32(tb + 4, Math.floor(${v} * ${INV32}) >>> 0, true);`, 'stp', v, site, '', ga)
        : `M.stp(${p}, ${v}, ${site});`;
    case TypeKind.Float:
      return inl ? inlineWrite(p, 4, `DV[ti].setFloat32(BS[ti] + to, ${v}, true);`, 'stf32', v, site, '', ga) : `M.stf32(${p}, ${v}, ${site});`;
    case TypeKind.Double:
      return inl ? inlineWrite(p, 8, `DV[ti].setFloat64(BS[ti] + to, ${v}, true);`, 'stf64', v, site, '', ga) : `M.stf64(${p}, ${v}, ${site});`;
    default:
      break;
  }
  return `storeT(M, ${p}, ${v}, ${g.bind(t)}, ${storeSize(t)}, ${site});`;
}

export function gepExpr(g: Gen, i: Instruction): string {
  if (i.type.kind === TypeKind.Vector) return `S.trap("vector getelementptr is not supported", ${g.site})`;
  const { off, parts } = gepOffset(g, i);
  let e = g.atom(i.ops[0].value);
  if (off !== 0) e += ` + ${numLit(off)}`;
  for (const p of parts) e += ` + ${p}`;
  return parts.length === 0 && off === 0 ? e : `(${e})`;
}

/** A GEP's byte offset from its base: a constant and the variable terms (index · stride). */
function gepOffset(g: Gen, i: Instruction): { off: number; parts: string[] } {
  let ty = i.auxType!;
  let off = 0;
  const parts: string[] = [];
  const add = (v: Value, stride: number): void => {
    if (v.kind === ValueKind.ConstantInt) {
      off += Number((v as ConstantInt).value) * stride;
      return;
    }
    if (v.kind === ValueKind.ConstantZero || v.kind === ValueKind.ConstantNull || v.kind === ValueKind.Undef || v.kind === ValueKind.Poison) return;
    const a = g.atom(v);
    const x = v.type.kind === TypeKind.Int && v.type.bits > 32 && !g.isNum(v) ? `(typeof ${a} === 'number' ? ${a} : idxN(${a}))` : a;
    parts.push(stride === 1 ? x : `${x} * ${stride}`);
  };
  add(i.ops[1].value, allocSize(ty));
  for (let k = 2; k < i.ops.length; k++) {
    const v = i.ops[k].value;
    if (ty.kind === TypeKind.Struct) {
      const field = v.kind === ValueKind.ConstantInt ? Number((v as ConstantInt).value) : 0;
      off += structLayout(ty).offsets[field];
      ty = ty.members[field];
    } else {
      ty = ty.elem!;
      add(v, allocSize(ty));
    }
  }
  return { off, parts };
}

/**
 * A load or store through a `getelementptr` on a global variable (clang's `a[i][j]` on a
 * static array): the allocation's id K is known when the code is generated, so the access
 * needs only the integer byte offset. The generic path splits a pointer double
 * (`p & mask`, `p · 2^-30 | 0`) and indexes the size, view and base tables by a runtime id;
 * on stencils and matrix codes that was most of the time of each access. Out of range
 * offsets take the generic Memory method on `base + offset`: the same pointer, the same fault.
 */
export interface GlobalAccess {
  k: number;
  base: string;
  off: string;
}

/**
 * `def` comes before `use` in the same block, at most 64 instructions back, with no call in
 * between: a call splits the block's code (the activation suspends), and the operands of
 * `def` may be locals of the part before it.
 */
function closeBefore(def: Instruction, use: Instruction): boolean {
  if (def.parent !== use.parent) return false;
  let i = use.prev;
  for (let n = 0; i !== null && n < 64; n++, i = i.prev) {
    if (i === def) return true;
    if (i.op === Opcode.Call) return false;
  }
  return false;
}

export function globalAccess(g: Gen, access: Instruction, ptr: Value): GlobalAccess | null {
  if (!g.inlineMemory) return null;
  // clang -O0 indexes a[i][j] with a GEP on a GEP on the global: follow a short chain. The
  // GEPs must sit in the access's block: their operands may be locals of their own block.
  let off = 0;
  const parts: string[] = [];
  let p = ptr;
  for (let depth = 0; depth < 4 && p.kind === ValueKind.Instruction; depth++) {
    const gep = p as Instruction;
    if (gep.op !== Opcode.GetElementPtr || gep.type.kind === TypeKind.Vector || !closeBefore(gep, access)) return null;
    const o = gepOffset(g, gep);
    off += o.off;
    parts.push(...o.parts);
    p = gep.ops[0].value;
  }
  if (p.kind !== ValueKind.GlobalVariable || p === ptr) return null;
  const addr = g.mc.constValue(p);
  if (typeof addr !== 'number' || addr <= 0 || addr % ID_UNIT !== 0 || !Number.isSafeInteger(off)) return null;
  let e = numLit(off);
  for (const x of parts) e += ` + ${x}`;
  return { k: addr / ID_UNIT, base: numLit(addr), off: e };
}
