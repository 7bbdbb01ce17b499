// The SysY generator's types, literals, expressions with their magnitude bounds, and calls
// (sysy-gen.ts has the statements and the program; its header says how the bounds keep
// every int below 2^31 and every float finite).

import { type GenCtx, type GenFn, type GenSizeOptions, ProgramGen, resolveOptions } from './gen-common.js';

export interface SysYGenOptions extends GenSizeOptions {
  floats: boolean;
  arrays2d: boolean;
  recursion: boolean;
}

export function resolveSysYGenOptions(opts: Partial<SysYGenOptions> = {}): SysYGenOptions {
  return resolveOptions<SysYGenOptions>(opts, { floats: true, arrays2d: true, recursion: true });
}

export const SYSY_C_PRELUDE = `int getint(void);
int getch(void);
float getfloat(void);
int getarray(int a[]);
int getfarray(float a[]);
void putint(int);
void putch(int);
void putfloat(float);
void putarray(int n, int a[]);
void putfarray(int n, float a[]);
void starttime(void);
void stoptime(void);
`;

/** Bound on stored values; `% MOD` restores it. */
export const B = 10006;
export const MOD = 10007;
/** Bound on intermediate int expressions (well below 2^31). */
export const LIMIT = 1_000_000_000;
/** Bound on intermediate float expressions. */
export const FLIMIT = 1e12;

export type Ty = 'int' | 'float';

export interface Var {
  name: string;
  ty: Ty;
  dims: number[]; // [] scalar, [n] 1-D, [r, c] 2-D; parameters: first dim is the minimum length
  isConst: boolean;
  readonly: boolean; // loop counters, recursion depth
  counter: boolean; // a loop counter: never negative, at most `bound`
  global: boolean;
  param: boolean;
  bound: number;
}

export interface Fn extends GenFn<Var> {
  ret: Ty | 'void';
}

export type Ctx = GenCtx<Var, Fn>;

export interface E { s: string; b: number }

/** Scale constants: SC[k] = 2^-k, exactly representable. */
export const SCALES: [number, string][] = [
  [1, 'SC1'], [2, 'SC2'], [4, 'SC4'], [8, 'SC8'], [16, 'SC16'],
];
export const SCALE_DECL = [
  'const float SC1 = 0.5;',
  'const float SC2 = 0.25;',
  'const float SC4 = 0.0625;',
  'const float SC8 = 0.00390625;',
  'const float SC16 = 0.0000152587890625;',
];
/** Nonzero float constants for multiplication and division, with their magnitudes. */
export const FCONST: [string, number][] = [
  ['FC0', 1.5], ['FC1', 0.75], ['FC2', 2.0], ['FC3', 3.0], ['FC4', 1.25], ['FC5', 0.5],
];
export const FCONST_DECL = [
  'const float FC0 = 1.5;',
  'const float FC1 = -0.75;',
  'const float FC2 = 2.0;',
  'const float FC3 = 3.0;',
  'const float FC4 = -1.25;',
  'const float FC5 = 0.5;',
];

export abstract class SysYExprGen extends ProgramGen<Var, Fn, Ctx, SysYGenOptions> {
  /** Nesting of index expressions being generated; bounds how deep a[b[c[...]]] goes. */
  protected idxNest = 0;

  protected writable(v: Var): boolean {
    if (v.isConst || v.readonly) return false;
    if (this.ctx.pure && (v.global || (v.param && v.dims.length > 0))) return false;
    return true;
  }
  protected mkVar(name: string, ty: Ty, dims: number[], extra: Partial<Var> = {}): Var {
    return { name, ty, dims, isConst: false, readonly: false, counter: false, global: false, param: false, bound: B, ...extra };
  }

  // ---- literals ----
  protected intLit(max = 100): E {
    const r = this.rng;
    const v = r.chance(0.8) ? r.range(0, max) : r.range(0, B);
    const k = r.below(12);
    if (k === 0 && v > 0) return { s: `0x${v.toString(16)}`, b: v };
    if (k === 1 && v > 0) return { s: `0${v.toString(8)}`, b: v };
    return { s: `${v}`, b: v };
  }
  protected floatLitText(): string {
    const v = this.rng.range(-4000, 4000) / 8;
    return Number.isInteger(v) ? `${v}.0` : `${v}`;
  }

  // ---- expressions ----

  /** Bring an int expression under `max` (at most B after the reduction). */
  protected reduce(e: E, max: number): E {
    if (e.b <= max) return e;
    return { s: `(${e.s} % ${MOD})`, b: B };
  }

  protected index(len: number): string {
    const r = this.rng;
    const counters = this.visible((v) => v.counter && v.bound < len);
    if (counters.length && r.chance(0.5)) return r.pick(counters).name;
    if (r.chance(0.25)) return `${r.below(len)}`;
    this.idxNest++;
    const e = this.intExpr(this.idxNest > 1 ? 0 : 1);
    this.idxNest--;
    return `(${e.s} % ${len} + ${len}) % ${len}`;
  }

  protected elem(a: Var): string {
    let s = a.name;
    for (const d of a.dims) s += `[${this.index(d)}]`;
    return s;
  }

  protected intLeaf(): E {
    const r = this.rng;
    const k = r.below(10);
    if (k < 3) return this.intLit();
    if (k < 7) {
      const vs = this.visible((v) => v.ty === 'int' && v.dims.length === 0);
      if (vs.length) { const v = r.pick(vs); return { s: v.name, b: v.bound }; }
      return this.intLit();
    }
    const as = this.idxNest > 1 ? [] : this.visible((v) => v.ty === 'int' && v.dims.length > 0);
    if (as.length) { const a = r.pick(as); return { s: this.elem(a), b: a.bound }; }
    return this.intLit();
  }

  /** An int expression with a bound on its magnitude. */
  intExpr(d: number): E {
    const r = this.rng;
    if (d <= 0 || r.chance(0.25)) return this.intLeaf();
    const k = r.weighted([30, 14, 8, 8, 5, 6]);
    switch (k) {
      case 0: { // + -
        let a = this.intExpr(d - 1), b = this.intExpr(d - 1);
        if (a.b + b.b > LIMIT) { a = this.reduce(a, B); b = this.reduce(b, B); }
        return { s: `(${a.s} ${r.chance(0.5) ? '+' : '-'} ${b.s})`, b: a.b + b.b };
      }
      case 1: { // *
        let a = this.intExpr(d - 1), b = this.intExpr(d - 1);
        if (a.b * b.b > LIMIT) { a = this.reduce(a, B); b = this.reduce(b, B); }
        if (a.b * b.b > LIMIT) return { s: `(${a.s} - ${b.s})`, b: a.b + b.b };
        return { s: `(${a.s} * ${b.s})`, b: a.b * b.b };
      }
      case 2: case 3: { // / %
        const a = this.intExpr(d - 1);
        let div: string;
        let dmax: number;
        if (r.chance(0.4)) {
          const c = r.range(1, 60);
          div = r.chance(0.3) ? `-${c}` : `${c}`;
          dmax = c;
        } else {
          const K = r.range(2, 50);
          const b = this.intExpr(d - 1);
          div = `(${b.s} % ${K} + ${K})`;
          dmax = 2 * K - 1;
        }
        if (k === 2) return { s: `(${a.s} / ${div})`, b: a.b };
        return { s: `(${a.s} % ${div})`, b: Math.min(a.b, dmax - 1) };
      }
      case 4: { // unary
        const a = this.intExpr(d - 1);
        return { s: `(${r.chance(0.8) ? '-' : '+'}${a.s})`, b: a.b };
      }
      default: { // pure int call
        const c = this.callExpr(true, 'int', d);
        return c ?? this.intLeaf();
      }
    }
  }

  protected floatLeaf(): E {
    const r = this.rng;
    const k = r.below(10);
    if (k < 2) { const [n, m] = r.pick(FCONST); return { s: n, b: m }; }
    if (k < 5) {
      const vs = this.visible((v) => v.ty === 'float' && v.dims.length === 0);
      if (vs.length) { const v = r.pick(vs); return { s: v.name, b: v.bound }; }
    }
    if (k < 8) {
      const as = this.visible((v) => v.ty === 'float' && v.dims.length > 0);
      if (as.length) { const a = r.pick(as); return { s: this.elem(a), b: a.bound }; }
    }
    // An int operand, made float right here: two int operands would otherwise make an
    // int operation whose bound the float rules below do not control.
    const i = this.intLeaf();
    return { s: `(${i.s} * SC1)`, b: i.b / 2 };
  }

  /** Multiply by a power of two so that the bound is at most `max`. */
  protected scale(e: E, max: number): E {
    if (e.b <= max) return e;
    let s = e.s;
    let b = e.b;
    while (b > max) {
      let k = 0;
      while (k < SCALES.length - 1 && b / 2 ** SCALES[k]![0] > max) k++;
      s = `(${s} * ${SCALES[k]![1]})`;
      b /= 2 ** SCALES[k]![0];
    }
    return { s, b };
  }

  /** A float expression (it may contain int subexpressions, converted by C's rules). */
  floatExpr(d: number): E {
    const r = this.rng;
    if (d <= 0 || r.chance(0.25)) return this.floatLeaf();
    const k = r.weighted([30, 14, 8, 5, 4, 8]);
    switch (k) {
      case 0: {
        let a = this.floatExpr(d - 1), b = this.floatExpr(d - 1);
        a = this.scale(a, FLIMIT / 2); b = this.scale(b, FLIMIT / 2);
        return { s: `(${a.s} ${r.chance(0.5) ? '+' : '-'} ${b.s})`, b: a.b + b.b };
      }
      case 1: {
        let a = this.floatExpr(d - 1), b = this.floatExpr(d - 1);
        a = this.scale(a, 1e6); b = this.scale(b, 1e6);
        return { s: `(${a.s} * ${b.s})`, b: a.b * b.b };
      }
      case 2: {
        const a = this.scale(this.floatExpr(d - 1), FLIMIT / 4);
        const [n, m] = r.pick(FCONST);
        return { s: `(${a.s} / ${n})`, b: a.b / m };
      }
      case 3: {
        const a = this.floatExpr(d - 1);
        return { s: `(-${a.s})`, b: a.b };
      }
      case 4: {
        const c = this.callExpr(true, 'float', d);
        return c ?? this.floatLeaf();
      }
      default: {
        // an int subexpression mixed into float arithmetic
        const a = this.scale(this.floatExpr(d - 1), 1e6);
        const b = this.reduce(this.intExpr(d - 1), B);
        return { s: `(${a.s} * ${b.s})`, b: a.b * b.b };
      }
    }
  }

  /**
   * A value of type ty whose magnitude is at most B, ready to store. With `cross`, the
   * value may be of the other type and converted by the assignment (only used where
   * SysY certainly converts implicitly: assignments and initialisers).
   */
  protected storable(ty: Ty, d: number, cross = true): string {
    if (ty === 'int') {
      if (cross && this.o.floats && this.rng.chance(0.15)) return this.scale(this.floatExpr(d), B).s; // float -> int on store
      return this.reduce(this.intExpr(d), B).s;
    }
    if (cross && this.rng.chance(0.2)) return this.reduce(this.intExpr(d), B).s; // int -> float on store
    return this.scale(this.floatExpr(d), B).s;
  }

  /** A relational operand: an int or float expression. */
  protected relOperand(d: number, float: boolean): string {
    return float ? this.floatExpr(d).s : this.intExpr(d).s;
  }

  /**
   * A SysY Cond: ||-list of &&-lists of relations, no parentheses around any of them.
   * `noOr` gives a single &&-list, which can be appended to a loop test with `&&`.
   */
  cond(d: number, noOr = false): string {
    const r = this.rng;
    const ors: string[] = [];
    const nOr = noOr || r.chance(0.75) ? 1 : 2;
    for (let i = 0; i < nOr; i++) {
      const ands: string[] = [];
      const nAnd = r.chance(0.7) ? 1 : 2;
      for (let j = 0; j < nAnd; j++) {
        const k = r.below(10);
        if (k < 7) {
          const fl = this.o.floats && r.chance(0.25);
          ands.push(`${this.relOperand(d - 1, fl)} ${r.pick(['<', '<=', '>', '>=', '==', '!='])} ${this.relOperand(d - 1, fl)}`);
        } else if (k < 9) {
          ands.push(this.intExpr(d - 1).s);
        } else {
          const l = this.intLeaf();
          ands.push(`!${l.s}`);
        }
      }
      ors.push(ands.join(' && '));
    }
    return ors.join(' || ');
  }

  // ---- calls ----

  protected arrayArg(p: Var): string {
    const r = this.rng;
    if (p.dims.length === 1) {
      const whole = this.visible((v) => !v.isConst && v.ty === p.ty && v.dims.length === 1 && v.dims[0]! >= p.dims[0]!);
      const rows = this.visible((v) => !v.isConst && v.ty === p.ty && v.dims.length === 2 && v.dims[1]! >= p.dims[0]!);
      if (rows.length && (r.chance(0.3) || !whole.length)) {
        const m = r.pick(rows);
        return `${m.name}[${this.index(m.dims[0]!)}]`;
      }
      return r.pick(whole).name; // a global array of each kind is always large enough
    }
    const ms = this.visible((v) => !v.isConst && v.ty === p.ty && v.dims.length === 2 && v.dims[1] === p.dims[1] && v.dims[0]! >= p.dims[0]!);
    return r.pick(ms).name;
  }

  protected args(f: Fn, d: number, depthArg: string | null): string {
    const out: string[] = [];
    for (const p of f.params) {
      if (p.name === 'depth' && depthArg !== null) out.push(depthArg);
      else if (p.dims.length) out.push(this.arrayArg(p));
      else out.push(this.storable(p.ty, Math.min(d, 2), false));
    }
    return out.join(', ');
  }

  protected callExpr(pureOnly: boolean, ret: Ty | 'void' | null, d: number): E | null {
    const fs = this.callable(pureOnly, (f) => ret === null || f.ret === ret);
    if (!fs.length) return null;
    const f = this.rng.pick(fs);
    this.ctx.cost += this.ctx.mult * f.cost;
    const depthArg = f.recursive ? `${this.intExpr(1).s} % ${f.maxDepth + 1}` : null;
    return { s: `${f.name}(${this.args(f, d - 1, depthArg)})`, b: B };
  }
}
