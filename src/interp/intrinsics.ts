/**
 * Inline code for LLVM intrinsics (`llvm.*` calls): the generated statement computes the
 * result into the call's SSA local. Unknown intrinsics return null (the caller emits a
 * runtime error naming them).
 */
import type { Instruction } from '../ir/instruction.js';
import { ConstantInt } from '../ir/constants.js';
import { Type, TypeKind } from '../ir/types.js';
import { ValueKind } from '../ir/value.js';
import type { Gen } from './codegen-state.js';
import { norm, uns } from './js-int.js';

const BASES = [
  'memcpy.inline', 'memcpy', 'memmove', 'memset.inline', 'memset',
  'lifetime.start', 'lifetime.end', 'assume', 'experimental.noalias.scope.decl', 'dbg.declare', 'dbg.value', 'dbg.label',
  'dbg.assign', 'donothing', 'invariant.start', 'invariant.end', 'prefetch', 'sideeffect', 'var.annotation', 'ptr.annotation',
  'pseudoprobe', 'expect.with.probability', 'expect', 'stacksave', 'stackrestore',
  'smax', 'smin', 'umax', 'umin', 'abs', 'ctpop', 'ctlz', 'cttz', 'bswap', 'bitreverse', 'fshl', 'fshr',
  'sadd.with.overflow', 'uadd.with.overflow', 'ssub.with.overflow', 'usub.with.overflow', 'smul.with.overflow', 'umul.with.overflow',
  'sadd.sat', 'uadd.sat', 'ssub.sat', 'usub.sat', 'sshl.sat', 'ushl.sat',
  'fmuladd', 'fma', 'fabs', 'sqrt', 'copysign', 'floor', 'ceil', 'trunc', 'roundeven', 'round', 'rint', 'nearbyint',
  'minnum', 'maxnum', 'minimum', 'maximum', 'pow', 'powi', 'exp2', 'exp10', 'exp', 'log2', 'log10', 'log', 'sin', 'cos', 'tan',
  'ldexp', 'lround', 'llround', 'lrint', 'llrint', 'canonicalize', 'is.constant', 'trap', 'debugtrap', 'ubsantrap',
  'va_start', 'va_end', 'va_copy', 'objectsize', 'load.relative', 'threadlocal.address', 'ucmp', 'scmp', 'ptrmask',
  'get.rounding', 'flt.rounds', 'vector.reduce.add', 'vector.reduce.mul', 'vector.reduce.and', 'vector.reduce.or',
  'vector.reduce.xor', 'vector.reduce.smax', 'vector.reduce.smin', 'vector.reduce.umax', 'vector.reduce.umin',
  'vector.reduce.fadd', 'vector.reduce.fmul', 'vector.reduce.fmax', 'vector.reduce.fmin', 'vector.reduce.fmaximum',
  'vector.reduce.fminimum', 'is.fpclass', 'launder.invariant.group', 'strip.invariant.group', 'annotation', 'clear_cache', 'frexp',
];

/** `llvm.smax.i32` → `smax`; null when not a known intrinsic. */
export function intrinsicBase(name: string): string | null {
  const n = name.slice(5);
  for (const b of BASES) if (n === b || n.startsWith(b + '.')) return b;
  return null;
}

function lanes(t: Type, args: string[], f: (xs: string[], t: Type) => string): string {
  if (t.kind !== TypeKind.Vector) return f(args, t);
  const out: string[] = [];
  for (let k = 0; k < t.count; k++) out.push(f(args.map((a) => `${a}[${k}]`), t.elem!));
  return `[${out.join(', ')}]`;
}

function isF32(t: Type): boolean {
  return t.scalarType().kind === TypeKind.Float;
}

export function emitIntrinsic(g: Gen, name: string, i: Instruction, args: string[]): string | null {
  const base = intrinsicBase(name);
  if (base === null) return null;
  const site = g.site;
  const hasRes = i.type.kind !== TypeKind.Void;
  const res = hasRes ? g.res(i) : '';
  const set = (e: string): string => (hasRes ? `${res} = ${e};` : `${e};`);
  const t0 = i.ops.length > 1 ? i.ops[1].value.type : i.type;
  const a = args;
  const math1 = (fn: string): string => set(lanes(i.type, a, (x) => (isF32(i.type) ? `Math.fround(${fn}(${x[0]}))` : `${fn}(${x[0]})`)));
  const math2 = (fn: string): string =>
    set(lanes(i.type, a, (x) => (isF32(i.type) ? `Math.fround(${fn}(${x[0]}, ${x[1]}))` : `${fn}(${x[0]}, ${x[1]})`)));
  switch (base) {
    case 'memcpy':
    case 'memcpy.inline':
      return `M.memcpy(${a[0]}, ${a[1]}, Number(${a[2]}), ${site});`;
    case 'memmove':
      return `M.memcpy(${a[0]}, ${a[1]}, Number(${a[2]}), ${site}, 'memmove');`;
    case 'memset':
    case 'memset.inline':
      return `M.memset(${a[0]}, ${a[1]}, Number(${a[2]}), ${site});`;
    case 'lifetime.start': case 'lifetime.end': case 'assume': case 'experimental.noalias.scope.decl':
    case 'dbg.declare': case 'dbg.value': case 'dbg.label': case 'dbg.assign': case 'donothing': case 'invariant.end':
    case 'prefetch': case 'sideeffect': case 'pseudoprobe': case 'va_end': case 'clear_cache':
      return '';
    case 'var.annotation': case 'annotation':
      return hasRes ? set(a[0]) : '';
    case 'invariant.start':
      return hasRes ? set('0') : '';
    case 'ptr.annotation': case 'expect': case 'expect.with.probability': case 'canonicalize': case 'threadlocal.address':
    case 'launder.invariant.group': case 'strip.invariant.group':
      return set(a[0]);
    case 'stacksave':
      return set('S.stackSave()');
    case 'stackrestore':
      return `S.stackRestore(${a[0]});`;
    case 'smax': case 'smin': case 'umax': case 'umin':
      return set(lanes(i.type, a, (x, t) => minmax(base, t.bits, x[0], x[1])));
    case 'abs':
      return set(lanes(i.type, a, (x, t) => {
        const bits = t.bits;
        if (bits <= 32) return `(${x[0]} < 0 ? ${norm(bits, `0 - ${x[0]}`)} : ${x[0]})`;
        if (bits === 64) return `(${x[0]} < 0 ? sub64(0, ${x[0]}) : ${x[0]})`;
        return `(${x[0]} < 0 ? binW(1, 0, ${x[0]}, ${bits}) : ${x[0]})`;
      }));
    case 'ctpop':
      return set(lanes(i.type, a, (x, t) => (t.bits <= 32 ? `popcount32(${uns(t.bits, x[0])})` : `ctpopW(${x[0]}, ${t.bits})`)));
    case 'ctlz':
      return set(lanes(i.type, a, (x, t) =>
        t.bits === 32 ? `Math.clz32(${x[0]})` : t.bits < 32 ? `(Math.clz32(${uns(t.bits, x[0])}) - ${32 - t.bits})` : `ctlzW(${x[0]}, ${t.bits})`,
      ));
    case 'cttz':
      return set(lanes(i.type, a, (x, t) => (t.bits <= 32 ? `cttz32(${x[0]}, ${t.bits})` : `cttzW(${x[0]}, ${t.bits})`)));
    case 'bswap':
      return set(lanes(i.type, a, (x, t) => (t.bits === 32 ? `bswap32(${x[0]})` : t.bits === 16 ? `bswap16(${x[0]})` : `bswapW(${x[0]}, ${t.bits})`)));
    case 'bitreverse':
      return set(lanes(i.type, a, (x, t) => `bitrevW(${x[0]}, ${t.bits})`));
    case 'fshl': case 'fshr':
      return set(lanes(i.type, a, (x, t) => `${base}(${x[0]}, ${x[1]}, ${x[2]}, ${t.bits})`));
    case 'sadd.with.overflow': case 'uadd.with.overflow': case 'ssub.with.overflow': case 'usub.with.overflow':
    case 'smul.with.overflow': case 'umul.with.overflow': {
      const k = ['sadd', 'uadd', 'ssub', 'usub', 'smul', 'umul'].indexOf(base.slice(0, 4));
      if (t0.kind === TypeKind.Vector) return null;
      return set(`withOverflow(${k}, ${a[0]}, ${a[1]}, ${t0.bits})`);
    }
    case 'sadd.sat': case 'uadd.sat': case 'ssub.sat': case 'usub.sat': case 'sshl.sat': case 'ushl.sat': {
      const k = ['sadd', 'uadd', 'ssub', 'usub', 'sshl', 'ushl'].indexOf(base.slice(0, 4));
      return set(lanes(i.type, a, (x, t) => `saturate(${k}, ${x[0]}, ${x[1]}, ${t.bits})`));
    }
    case 'fmuladd':
      return set(lanes(i.type, a, (x) => (isF32(i.type) ? `Math.fround(Math.fround(${x[0]} * ${x[1]}) + ${x[2]})` : `(${x[0]} * ${x[1]} + ${x[2]})`)));
    case 'fma':
      return set(lanes(i.type, a, (x) => (isF32(i.type) ? `Math.fround(fmaD(${x[0]}, ${x[1]}, ${x[2]}))` : `fmaD(${x[0]}, ${x[1]}, ${x[2]})`)));
    case 'fabs': return set(lanes(i.type, a, (x) => `Math.abs(${x[0]})`));
    case 'sqrt': return math1('Math.sqrt');
    case 'copysign': return set(lanes(i.type, a, (x) => `copysign(${x[0]}, ${x[1]})`));
    case 'floor': return set(lanes(i.type, a, (x) => `Math.floor(${x[0]})`));
    case 'ceil': return set(lanes(i.type, a, (x) => `Math.ceil(${x[0]})`));
    case 'trunc': return set(lanes(i.type, a, (x) => `Math.trunc(${x[0]})`));
    case 'round': return set(lanes(i.type, a, (x) => `roundC(${x[0]})`));
    case 'roundeven': case 'rint': case 'nearbyint': return set(lanes(i.type, a, (x) => `rintC(${x[0]})`));
    case 'minnum': return set(lanes(i.type, a, (x) => `fminC(${x[0]}, ${x[1]})`));
    case 'maxnum': return set(lanes(i.type, a, (x) => `fmaxC(${x[0]}, ${x[1]})`));
    case 'minimum': return set(lanes(i.type, a, (x) => `Math.min(${x[0]}, ${x[1]})`));
    case 'maximum': return set(lanes(i.type, a, (x) => `Math.max(${x[0]}, ${x[1]})`));
    case 'pow': case 'powi': return math2('Math.pow');
    case 'exp': return math1('expC');
    case 'exp2': return math1('exp2');
    case 'exp10': return math1('exp10');
    case 'log': return math1('Math.log');
    case 'log2': return math1('Math.log2');
    case 'log10': return math1('Math.log10');
    case 'sin': return math1('Math.sin');
    case 'cos': return math1('Math.cos');
    case 'tan': return math1('Math.tan');
    case 'ldexp': return math2('ldexp');
    case 'lround': case 'llround':
      return set(i.type.bits > 32 ? `fptosi64(roundC(${a[0]}))` : `fptosi32(roundC(${a[0]}))`);
    case 'lrint': case 'llrint':
      return set(i.type.bits > 32 ? `fptosi64(rintC(${a[0]}))` : `fptosi32(rintC(${a[0]}))`);
    case 'is.constant':
      return set('0');
    case 'trap': case 'debugtrap': case 'ubsantrap':
      return `S.trap(${JSON.stringify(`@llvm.${base} called (trap)`)}, ${site});`;
    case 'va_start':
      return `vaStart(S, fr, ${a[0]}, ${g.info.fn.fnType.params.length}, ${site});`;
    case 'va_copy':
      return `M.memcpy(${a[0]}, ${a[1]}, 24, ${site}, 'va_copy');`;
    case 'objectsize': {
      const minV = i.ops[2]?.value;
      const min = minV !== undefined && minV.kind === ValueKind.ConstantInt && (minV as ConstantInt).value !== 0n;
      return set(min ? '0' : '(-1)');
    }
    case 'load.relative':
      return set(`loadRelative(S, ${a[0]}, ${a[1]}, ${site})`);
    case 'ucmp': case 'scmp': {
      const lt = base === 'ucmp' && t0.kind === TypeKind.Int ? (t0.bits > 32 ? `ult(${a[0]}, ${a[1]})` : `${uns(t0.bits, a[0])} < ${uns(t0.bits, a[1])}`) : `${a[0]} < ${a[1]}`;
      return set(`(${a[0]} === ${a[1]} ? 0 : ${lt} ? -1 : 1)`);
    }
    case 'ptrmask':
      return set(`ptrmask(${a[0]}, ${a[1]})`);
    case 'get.rounding': case 'flt.rounds':
      return set('1');
    case 'frexp':
      return set(`frexp(${a[0]})`);
    case 'is.fpclass':
      return set(lanes(i.type, [a[0]], (x) => `((fpclass(${x[0]}) & ${a[1]}) !== 0 ? 1 : 0)`));
    default:
      break;
  }
  if (base.startsWith('vector.reduce.')) {
    const kind = base.slice(14);
    if (kind === 'fadd' || kind === 'fmul') return set(`reduceF(${JSON.stringify(kind)}, ${a[0]}, ${a[1]}, ${isF32(i.type)})`);
    const et = t0.kind === TypeKind.Vector ? t0.elem! : t0;
    return set(`reduce(${JSON.stringify(kind)}, ${a[0]}, ${et.kind === TypeKind.Int ? et.bits : 0}, ${isF32(et)})`);
  }
  return null;
}

function minmax(kind: string, bits: number, a: string, b: string): string {
  const wide = bits > 32;
  switch (kind) {
    case 'smax': return `(${a} > ${b} ? ${a} : ${b})`;
    case 'smin': return `(${a} < ${b} ? ${a} : ${b})`;
    case 'umax': return wide ? `(ult(${b}, ${a}) ? ${a} : ${b})` : `(${uns(bits, a)} > ${uns(bits, b)} ? ${a} : ${b})`;
    default: return wide ? `(ult(${a}, ${b}) ? ${a} : ${b})` : `(${uns(bits, a)} < ${uns(bits, b)} ? ${a} : ${b})`;
  }
}
