/**
 * Constant initializers of SysY arrays, in the compact shapes clang emits.
 *
 * An array initializer arrives flattened (ast.ts: a sorted sparse list of row-major flat
 * index → constant). Two printed shapes:
 *
 *  - nested, as written: `[2 x [3 x i32]] [[3 x i32] [i32 1, i32 0, i32 0], [3 x i32] zeroinitializer]`,
 *    every sub-array without a non-zero element being `zeroinitializer`;
 *  - flat runs, for sparse arrays whose nested form would be big (a 1,000,000-element
 *    array with a few entries): a packed struct whose members are dense runs and
 *    zero runs, `<{ [2 x i32] [i32 1, i32 2], [999998 x i32] zeroinitializer }>`, the
 *    layout clang uses for `int a[1000000] = {1, 2}`. The object has the array's size
 *    and layout (i32 and float have no padding), so code addresses it with GEPs over
 *    the array type, as clang does.
 *
 * The choice keeps the printed size O(non-zero entries + dims), never O(array size).
 * Everything here is iterative (the number of dimensions is unbounded in principle).
 */
import { Constant, ConstantAggregate, ConstantFP, ConstantInt, ConstantZero } from '../../ir/constants.js';
import { Type, arrayType, floatType, i32, structType } from '../../ir/types.js';
import { ValueKind } from '../../ir/value.js';
import type { ElemKind, ResolvedInit } from './ast.js';

/** The LLVM type of a SysY scalar. */
export function scalarIRType(k: ElemKind): Type {
  return k === 'int' ? i32 : floatType;
}

/** `[d0 x [d1 x ... T]]`, built from the innermost dimension outwards. */
export function arrayIRType(elem: ElemKind, dims: readonly number[]): Type {
  let t = scalarIRType(elem);
  for (let j = dims.length - 1; j >= 0; j--) t = arrayType(t, dims[j]);
  return t;
}

/** Whether a SysY constant is stored as all-zero bits (-0.0 is not). */
export function isZeroBits(v: number): boolean {
  return v === 0 && !Object.is(v, -0);
}

/** The scalar constant for a folded SysY value. */
export function scalarConstant(elem: ElemKind, v: number): Constant {
  return elem === 'int' ? ConstantInt.get(i32, v) : ConstantFP.get(floatType, v);
}

export interface ArrayInit {
  /** The global's value type: the array type, or the packed struct of runs. */
  type: Type;
  init: Constant;
}

/** Non-zero constant entries of an initializer, as parallel arrays (sorted by index). */
export function nonZeroEntries(init: ResolvedInit | null): { index: number[]; value: number[] } {
  const index: number[] = [];
  const value: number[] = [];
  if (init === null || init.kind !== 'array') return { index, value };
  for (const e of init.entries) {
    const v = e.expr.constValue;
    if (v === undefined) throw new Error('internal error: non-constant entry in a constant initializer');
    if (!isZeroBits(v)) {
      index.push(e.index);
      value.push(v);
    }
  }
  return { index, value };
}

/** Gaps of zeros at least this long become their own `zeroinitializer` run. */
const MIN_ZERO_RUN = 16;

/** The constant initializer of an array with `dims` from its flattened initializer. */
export function arrayConstant(elem: ElemKind, dims: readonly number[], init: ResolvedInit | null): ArrayInit {
  const type = arrayIRType(elem, dims);
  const { index, value } = nonZeroEntries(init);
  const n = index.length;
  if (n === 0) return { type, init: ConstantZero.get(type) };

  // Printed size of the nested form: at each level, every sub-array holding a non-zero
  // element prints all of its children. Count distinct prefixes per level.
  const levels = dims.length;
  let nestedCost = 0;
  let stride = 1;
  for (let j = levels - 1; j >= 0; j--) {
    // nodes at level j (objects of rank levels-j) are indexed by flat / (stride * dims[j])
    const span = stride * dims[j];
    let distinct = 0;
    let last = -1;
    for (let k = 0; k < n; k++) {
      const node = Math.floor(index[k] / span);
      if (node !== last) {
        distinct++;
        last = node;
      }
    }
    nestedCost += distinct * dims[j];
    stride = span;
  }
  const flatCost = n + 2 * countRuns(index);
  if (nestedCost <= 4 * flatCost + 64) return { type, init: nestedConstant(elem, dims, index, value) };
  return flatRuns(elem, total(dims), index, value);
}

function total(dims: readonly number[]): number {
  let s = 1;
  for (const d of dims) s *= d;
  return s;
}

function countRuns(index: readonly number[]): number {
  let runs = 1;
  for (let k = 1; k < index.length; k++) if (index[k] - index[k - 1] - 1 >= MIN_ZERO_RUN) runs++;
  return runs;
}

/**
 * The nested form, bottom-up: level by level, group the non-zero children of each
 * sub-array (a sparse list of (position, constant)) into that sub-array's constant.
 */
function nestedConstant(elem: ElemKind, dims: readonly number[], index: number[], value: number[]): Constant {
  const levels = dims.length;
  // sparse list at the current level: node ids and their constants
  let ids: number[] = index;
  let consts: Constant[] = value.map((v) => scalarConstant(elem, v));
  let childType = scalarIRType(elem);
  for (let j = levels - 1; j >= 0; j--) {
    const d = dims[j];
    const t = arrayType(childType, d);
    const zeroChild = childType.isArray() ? ConstantZero.get(childType) : scalarConstant(elem, 0);
    const nextIds: number[] = [];
    const nextConsts: Constant[] = [];
    let k = 0;
    while (k < ids.length) {
      const parent = Math.floor(ids[k] / d);
      const elems = new Array<Constant>(d).fill(zeroChild);
      while (k < ids.length && Math.floor(ids[k] / d) === parent) {
        elems[ids[k] - parent * d] = consts[k];
        k++;
      }
      nextIds.push(parent);
      nextConsts.push(new ConstantAggregate(ValueKind.ConstantArray, t, elems));
    }
    ids = nextIds;
    consts = nextConsts;
    childType = t;
  }
  return consts[0];
}

/** `<{ [k x T] [...], [m x T] zeroinitializer, ... }>` covering `size` elements. */
function flatRuns(elem: ElemKind, size: number, index: number[], value: number[]): ArrayInit {
  const et = scalarIRType(elem);
  const zero = scalarConstant(elem, 0);
  const members: Type[] = [];
  const parts: Constant[] = [];
  const zeroRun = (len: number): void => {
    const t = arrayType(et, len);
    members.push(t);
    parts.push(ConstantZero.get(t));
  };
  let pos = 0;
  let k = 0;
  while (k < index.length) {
    if (index[k] - pos >= MIN_ZERO_RUN) {
      zeroRun(index[k] - pos);
      pos = index[k];
    }
    // a dense run from pos up to the last entry before a long gap
    let end = k;
    while (end + 1 < index.length && index[end + 1] - index[end] - 1 < MIN_ZERO_RUN) end++;
    const len = index[end] + 1 - pos;
    const elems = new Array<Constant>(len).fill(zero);
    for (let q = k; q <= end; q++) elems[index[q] - pos] = scalarConstant(elem, value[q]);
    const t = arrayType(et, len);
    members.push(t);
    parts.push(new ConstantAggregate(ValueKind.ConstantArray, t, elems));
    pos = index[end] + 1;
    k = end + 1;
  }
  if (pos < size) zeroRun(size - pos);
  const st = structType(members, true);
  return { type: st, init: new ConstantAggregate(ValueKind.ConstantStruct, st, parts) };
}
