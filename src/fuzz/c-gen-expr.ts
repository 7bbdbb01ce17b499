// The C generator's types, constants, expressions and calls (c-gen.ts has the statements and
// the program; its header says which rules keep every program free of undefined behaviour,
// and the expressions here are where most of them are enforced).

import { type GenCtx, type GenFn, type GenSizeOptions, ProgramGen, resolveOptions } from './gen-common.js';

export interface CGenOptions extends GenSizeOptions {
  structs: boolean;
  pointers: boolean;
  gotos: boolean;
  switches: boolean;
  recursion: boolean;
  /**
   * GCC's labels as values (`&&L`, `goto *p`: LLVM's blockaddress and indirectbr): a
   * dispatch through a static table of label addresses and loops closed by a computed
   * goto. Off in the presets (clang only; keeps the programs of existing seeds unchanged).
   */
  computedGotos?: boolean;
}

export function resolveCGenOptions(opts: Partial<CGenOptions> = {}): CGenOptions {
  return resolveOptions<CGenOptions>(opts, { structs: true, pointers: true, gotos: true, switches: true, recursion: true });
}

// ---------------------------------------------------------------------------------
// Types

export const INT = 0, UINT = 1, LONG = 2, ULONG = 3, SCHAR = 4, UCHAR = 5, SHORT = 6, USHORT = 7;
export const ARITH = [INT, UINT, LONG, ULONG] as const;
export const ALL_TYPES = [INT, UINT, LONG, ULONG, SCHAR, UCHAR, SHORT, USHORT] as const;
export const TYPE_NAME = ['int', 'unsigned', 'long', 'unsigned long', 'signed char', 'unsigned char', 'short', 'unsigned short'];
export const TYPE_BITS = [32, 32, 64, 64, 8, 8, 16, 16];
export const TYPE_SIGNED = [true, false, true, false, true, false, true, false];
export const UNSIGNED_OF = [UINT, UINT, ULONG, ULONG, UINT, UINT, UINT, UINT];
export const isArith = (t: number): boolean => t <= ULONG;
/** Type after the integer promotions. */
export const promoted = (t: number): number => (isArith(t) ? t : INT);

export const enum VK { Scalar, Array, Ptr, Struct, StructArray }

export interface StructDef { name: string; fields: { name: string; ty: number }[] }

export interface Var {
  name: string;
  kind: VK;
  ty: number; // element type for arrays/pointers; unused for structs
  len: number; // arrays, pointers, struct arrays
  readonly: boolean;
  global: boolean;
  sdef: StructDef | null;
  isConst: boolean;
}

export interface Fn extends GenFn<Var> {
  ret: number;
}

export interface Ctx extends GenCtx<Var, Fn> {
  breakable: number; // loops + switches enclosing
  noDeclTop: boolean; // top-level of a forward-goto region: declarations forbidden
}

export const INT_MIN = -2147483648;

// ---------------------------------------------------------------------------------

export abstract class CExprGen extends ProgramGen<Var, Fn, Ctx, CGenOptions> {
  protected readonly structs: StructDef[] = [];

  // ---- constants ----
  protected constOf(t: number, small = false): string {
    const r = this.rng;
    const bits = TYPE_BITS[t]!;
    if (!isArith(t)) {
      const signed = TYPE_SIGNED[t]!;
      const max = 2 ** (signed ? bits - 1 : bits) - 1;
      const min = signed ? -(max + 1) : 0;
      const v = small || r.chance(0.6) ? r.range(Math.max(min, -20), Math.min(max, 50)) : r.range(min, max);
      return v < 0 ? `(${v})` : `${v}`;
    }
    if (bits === 32) {
      let v: number;
      const k = small ? 0 : r.below(4);
      if (k === 0) v = r.range(-20, 100);
      else if (k === 1) v = r.pick([0, 1, -1, 2147483647, INT_MIN, 255, 65535, -65536, 1000000007]);
      else v = r.next() | 0;
      if (t === UINT) return `${v >>> 0}u`;
      if (v === INT_MIN) return '(-2147483647 - 1)';
      return v < 0 ? `(${v})` : `${v}`;
    }
    let v: bigint;
    const k = small ? 0 : r.below(4);
    if (k === 0) v = BigInt(r.range(-20, 100));
    else if (k === 1) v = r.pick([0n, 1n, -1n, 9223372036854775807n, -9223372036854775808n, 4294967296n, 4294967295n, -4294967296n]);
    else v = BigInt.asIntN(64, r.u64());
    if (t === ULONG) return `${BigInt.asUintN(64, v)}UL`;
    if (v === -9223372036854775808n) return '(-9223372036854775807L - 1)';
    return v < 0n ? `(${v}L)` : `${v}L`;
  }

  protected writable(v: Var): boolean {
    if (v.readonly || v.isConst) return false;
    if (this.ctx.pure && (v.global || v.kind === VK.Ptr)) return false;
    return true;
  }

  // ---- expressions ----

  /** An index expression in [0, len). */
  protected index(len: number, d: number): string {
    const r = this.rng;
    const loopVars = this.visible((v) => v.kind === VK.Scalar && v.readonly);
    if (loopVars.length && r.chance(0.4)) {
      const lv = r.pick(loopVars);
      return `(unsigned)(${lv.name}) % ${len}u`;
    }
    if (r.chance(0.3)) return `${r.below(len)}`;
    if (d <= 0 || r.chance(0.5)) {
      const vs = this.visible((v) => v.kind === VK.Scalar);
      if (vs.length) return `(unsigned)(${r.pick(vs).name}) % ${len}u`;
      return `${r.below(len)}`;
    }
    const e = this.expr(r.pick(ARITH), Math.min(d, 1));
    return `(unsigned)(${e}) % ${len}u`;
  }

  /** Read of a variable or element as an rvalue of type t (cast when needed). */
  protected castTo(t: number, from: number, text: string): string {
    if (t === from) return text;
    // Narrow reads are cast too (promotion would do it), so every expression has
    // exactly its requested type: switch labels and comparisons then never surprise.
    return `((${TYPE_NAME[t]})${text})`;
  }

  protected leaf(t: number, d: number): string {
    const r = this.rng;
    const k = r.below(10);
    if (k < 2) return this.constOf(t);
    if (k < 6) {
      const vs = this.visible((v) => v.kind === VK.Scalar);
      if (vs.length) { const v = r.pick(vs); return this.castTo(t, v.ty, v.name); }
      return this.constOf(t);
    }
    if (k < 8) {
      const arrs = this.visible((v) => v.kind === VK.Array || v.kind === VK.Ptr);
      if (arrs.length) {
        const a = r.pick(arrs);
        if (a.kind === VK.Ptr && r.chance(0.3)) return this.castTo(t, a.ty, `*(${a.name} + ${r.below(a.len)})`);
        return this.castTo(t, a.ty, `${a.name}[${this.index(a.len, d - 1)}]`);
      }
      return this.constOf(t);
    }
    const ss = this.visible((v) => v.kind === VK.Struct || v.kind === VK.StructArray);
    if (ss.length) {
      const s = r.pick(ss);
      const f = r.pick(s.sdef!.fields);
      const base = s.kind === VK.Struct ? s.name : `${s.name}[${this.index(s.len, d - 1)}]`;
      return this.castTo(t, f.ty, `${base}.${f.name}`);
    }
    return this.constOf(t, true);
  }

  /** An expression of arithmetic type t (int, unsigned, long, unsigned long). */
  expr(t: number, d: number): string {
    const r = this.rng;
    if (d <= 0 || r.chance(0.3)) return this.leaf(t, d);
    const bits = TYPE_BITS[t]!;
    const signed = TYPE_SIGNED[t]!;
    const ut = UNSIGNED_OF[t]!;
    const UT = TYPE_NAME[ut]!;
    const T = TYPE_NAME[t]!;
    const sh = bits - 1;
    const k = r.weighted([30, 12, 8, 10, 6, 5, 6, 4, 6]);
    switch (k) {
      case 0: { // + - * & | ^
        const a = this.expr(t, d - 1), b = this.expr(t, d - 1);
        const op = r.pick(['+', '-', '*', '&', '|', '^', '+', '-']);
        if (!signed || op === '&' || op === '|' || op === '^') return `(${a} ${op} ${b})`;
        const form = r.below(4);
        if (form === 0) return `((${T})((${UT})(${a}) ${op} (${UT})(${b})))`;
        if (form === 1) {
          if (op === '*') return bits === 32 ? `((${a} % 46340) * (${b} % 46340))` : `((${a} % 3000000000L) * (${b} % 3000000000L))`;
          return bits === 32 ? `((${a} % 1000000000) ${op} (${b} % 1000000000))` : `((${a} % 4000000000000000000L) ${op} (${b} % 4000000000000000000L))`;
        }
        if (form === 2) return bits === 32 ? `((${a} >> 16) ${op} (${b} >> 16))` : `((${a} >> 32) ${op} (${b} >> 32))`;
        return bits === 32 ? `((${a} & 0xffff) ${op} (${b} & 0x7fff))` : `((${a} & 0xffffffffL) ${op} (${b} & 0x7fffffffL))`;
      }
      case 1: { // / %
        const op = r.chance(0.5) ? '/' : '%';
        const a = this.expr(t, d - 1);
        const form = r.below(4);
        if (form === 0) {
          let c = r.range(2, 100);
          if (signed && r.chance(0.3)) c = -c;
          const cs = signed ? (bits === 32 ? `${c}` : `${c}L`) : `${c}${bits === 32 ? 'u' : 'UL'}`;
          return `(${a} ${op} ${c < 0 ? `(${cs})` : cs})`;
        }
        const b = this.expr(t, d - 1);
        if (form === 1) return signed ? `((${a} | 1) ${op} (${b} | 1))` : `(${a} ${op} (${b} | 1${bits === 32 ? 'u' : 'UL'}))`;
        if (form === 2) return `(${a} ${op} ((${b} & 255) + 1))`;
        // Guarded by a test of the divisor; it is evaluated twice, so keep it simple.
        const bb = this.leaf(t, 0);
        if (!signed) return `(${bb} ? (${a} ${op} ${bb}) : ${this.constOf(t, true)})`;
        return `((${bb} != 0 && ${bb} != -1) ? (${a} ${op} ${bb}) : ${this.constOf(t, true)})`;
      }
      case 2: { // shifts
        const a = this.expr(t, d - 1);
        const b = this.expr(r.pick(ARITH), d - 1);
        const mask = r.chance(0.5) ? `(${b} & ${sh})` : `((unsigned)(${b}) % ${bits}u)`;
        if (r.chance(0.5)) return `(${a} >> ${mask})`;
        if (!signed) return `(${a} << ${mask})`;
        if (r.chance(0.5)) return `((${T})((${UT})(${a}) << ${mask}))`;
        return bits === 32 ? `((${a} & 0xfff) << (${b} & 15))` : `((${a} & 0xfffffL) << (${b} & 31))`;
      }
      case 3: { // comparison, an int 0/1
        const u = r.pick(ARITH);
        const a = this.expr(u, d - 1), b = this.expr(u, d - 1);
        return this.castTo(t, INT, `(${a} ${r.pick(['<', '<=', '>', '>=', '==', '!='])} ${b})`);
      }
      case 4: { // logical
        const a = this.expr(r.pick(ARITH), d - 1);
        const kk = r.below(3);
        if (kk === 2) return this.castTo(t, INT, `(!${a})`);
        const b = this.expr(r.pick(ARITH), d - 1);
        return this.castTo(t, INT, `(${a} ${kk ? '&&' : '||'} ${b})`);
      }
      case 5: { // ternary
        const c = this.expr(r.pick(ARITH), d - 1);
        return `(${c} ? ${this.expr(t, d - 1)} : ${this.expr(t, d - 1)})`;
      }
      case 6: { // unary
        const a = this.expr(t, d - 1);
        const kk = r.below(3);
        if (kk === 0) return `(~${a})`;
        if (!signed) return `(-${a})`;
        if (kk === 1) return `((${T})(0${bits === 32 ? 'u' : 'UL'} - (${UT})(${a})))`;
        return bits === 32 ? `(-(${a} & 0xfffff))` : `(-(${a} & 0xfffffffffL))`;
      }
      case 7: { // conversion from another type, possibly through a narrow one
        const from = r.pick(ALL_TYPES);
        const a = this.expr(promoted(from), d - 1);
        if (isArith(from)) return this.castTo(t, from, `(${a})`);
        return `((${TYPE_NAME[t]})((${TYPE_NAME[from]})(${a})))`;
      }
      default: { // call of a pure function
        const call = this.callExpr(true, d);
        if (call) return this.castTo(t, call.ret, call.text);
        return this.leaf(t, d);
      }
    }
  }

  /** A condition (any arithmetic type is fine in C). */
  protected cond(d: number): string {
    const r = this.rng;
    if (r.chance(0.7)) {
      const u = r.pick(ARITH);
      return `${this.expr(u, d - 1)} ${r.pick(['<', '<=', '>', '>=', '==', '!='])} ${this.expr(u, d - 1)}`;
    }
    return this.expr(r.pick(ARITH), d);
  }

  // ---- calls ----

  protected args(f: Fn, d: number, depthArg: string | null): string {
    const r = this.rng;
    const out: string[] = [];
    for (const p of f.params) {
      if (p.kind === VK.Scalar) {
        if (depthArg !== null && p.name === 'depth') { out.push(depthArg); continue; }
        const e = this.expr(promoted(p.ty), Math.min(d, 2));
        out.push(isArith(p.ty) ? e : `(${TYPE_NAME[p.ty]})(${e})`);
      } else if (p.kind === VK.Ptr) {
        const cands = this.visible((v) => (v.kind === VK.Array || v.kind === VK.Ptr) && v.ty === p.ty && v.len >= p.len && !v.isConst);
        const a = r.pick(cands); // a global array of every element type is big enough
        const off = a.len > p.len && r.chance(0.5) ? r.below(a.len - p.len + 1) : 0;
        out.push(off ? `${a.name} + ${off}` : a.name);
      } else {
        const cands = this.visible((v) => v.kind === VK.Struct && v.sdef === p.sdef);
        const arrs = this.visible((v) => v.kind === VK.StructArray && v.sdef === p.sdef);
        if (cands.length && (r.chance(0.5) || !arrs.length)) out.push(r.pick(cands).name);
        else { const a = r.pick(arrs); out.push(`${a.name}[${this.index(a.len, 1)}]`); }
      }
    }
    return out.join(', ');
  }

  protected callExpr(pureOnly: boolean, d: number): { text: string; ret: number } | null {
    const fs = this.callable(pureOnly);
    if (!fs.length) return null;
    const f = this.rng.pick(fs);
    this.ctx.cost += this.ctx.mult * f.cost;
    const depthArg = f.recursive ? `(int)((unsigned)(${this.expr(INT, 1)}) % ${f.maxDepth + 1}u)` : null;
    return { text: `${f.name}(${this.args(f, d - 1, depthArg)})`, ret: f.ret };
  }
}
