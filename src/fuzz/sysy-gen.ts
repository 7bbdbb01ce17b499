// Seeded generator of well-defined SysY 2022 programs (the C subset of the Chinese
// compiler contest): int and float scalars, int/float arrays with literal dimensions
// (up to two), const declarations, functions with scalar and array parameters
// (`int a[]`, `int a[][5]`), if/else, while, break, continue, return.
//
// SysY has only signed 32-bit int, so the generator tracks a bound on |value| of every
// expression it builds (interval arithmetic on magnitudes):
//  - every stored int (variable, element, parameter, return value) has |v| <= 10006,
//    restored after each arithmetic step with `% 10007` when the bound says it could be
//    larger; intermediate expressions stay below 1e9, so nothing overflows;
//  - divisors are literals or `(e % K + K)`, which lies in [1, 2K-1];
//  - floats are only added, subtracted, multiplied, or divided by nonzero float
//    constants; magnitudes are tracked the same way and brought back under 10006 by
//    multiplying with exact powers of two, so no inf or NaN ever appears and every
//    float -> int conversion is in range;
//  - float literals appear only in initialisers of globals (never in expressions), so
//    the program means the same when compiled as C, where a literal would be double;
//  - array indices are literals, loop counters known to be in range, or
//    `(e % L + L) % L`;
//  - loops are `while` with a counter incremented first thing in the body, so a
//    `continue` cannot skip it; trip counts are literals and their products capped;
//  - only functions defined earlier are called (SysY has no prototypes), plus one
//    self-call with a decreasing depth argument;
//  - "pure" functions (no output, no writes to globals or array parameters) may be
//    called inside expressions; the others only as whole statements or `x = f(...)`,
//    so the output never depends on the order of evaluation of operands.
// Syntax is kept inside SysY's grammar: relational and logical operators only in
// if/while conditions and never parenthesised; `!` only there, on an int operand.
// With SYSY_C_PRELUDE in front, every program is also a valid C program with the same
// meaning, which is how it is checked against clang.

import { Rng } from './rng.js';

export interface SysYGenOptions {
  size: 'small' | 'medium' | 'large';
  /** Large mode: keep adding functions until the program has about this many lines. */
  targetLines: number;
  functions: number;
  maxStmts: number;
  maxDepth: number;
  maxExprDepth: number;
  maxTrip: number;
  maxLoopProduct: number;
  workBudget: number;
  globals: number;
  floats: boolean;
  arrays2d: boolean;
  recursion: boolean;
}

const PRESETS: Record<SysYGenOptions['size'], Omit<SysYGenOptions, 'size'>> = {
  small: {
    targetLines: 0, functions: 3, maxStmts: 5, maxDepth: 3, maxExprDepth: 3, maxTrip: 8,
    maxLoopProduct: 64, workBudget: 3000, globals: 6, floats: true, arrays2d: true, recursion: true,
  },
  medium: {
    targetLines: 0, functions: 7, maxStmts: 7, maxDepth: 4, maxExprDepth: 4, maxTrip: 12,
    maxLoopProduct: 150, workBudget: 12000, globals: 10, floats: true, arrays2d: true, recursion: true,
  },
  large: {
    targetLines: 100_000, functions: 0, maxStmts: 8, maxDepth: 4, maxExprDepth: 4, maxTrip: 3,
    maxLoopProduct: 6, workBudget: 400, globals: 40, floats: true, arrays2d: true, recursion: true,
  },
};

export function resolveSysYGenOptions(opts: Partial<SysYGenOptions> = {}): SysYGenOptions {
  const size = opts.size ?? 'medium';
  return { ...PRESETS[size], ...opts, size } as SysYGenOptions;
}

/** C declarations of the SysY runtime, to put in front of a SysY program to compile it as C. */
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
const B = 10006;
const MOD = 10007;
/** Bound on intermediate int expressions (well below 2^31). */
const LIMIT = 1_000_000_000;
/** Bound on intermediate float expressions. */
const FLIMIT = 1e12;

type Ty = 'int' | 'float';

interface Var {
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

interface Fn {
  name: string;
  index: number;
  ret: Ty | 'void';
  params: Var[];
  pure: boolean;
  recursive: boolean;
  maxDepth: number;
  cost: number;
}

interface Ctx {
  fn: Fn | null;
  pure: boolean;
  scopes: Var[][];
  mult: number;
  cost: number;
  budget: number;
  loopDepth: number;
  depth: number;
}

interface E { s: string; b: number }

/** Scale constants: SC[k] = 2^-k, exactly representable. */
const SCALES: [number, string][] = [
  [1, 'SC1'], [2, 'SC2'], [4, 'SC4'], [8, 'SC8'], [16, 'SC16'],
];
const SCALE_DECL = [
  'const float SC1 = 0.5;',
  'const float SC2 = 0.25;',
  'const float SC4 = 0.0625;',
  'const float SC8 = 0.00390625;',
  'const float SC16 = 0.0000152587890625;',
];
/** Nonzero float constants for multiplication and division, with their magnitudes. */
const FCONST: [string, number][] = [
  ['FC0', 1.5], ['FC1', 0.75], ['FC2', 2.0], ['FC3', 3.0], ['FC4', 1.25], ['FC5', 0.5],
];
const FCONST_DECL = [
  'const float FC0 = 1.5;',
  'const float FC1 = -0.75;',
  'const float FC2 = 2.0;',
  'const float FC3 = 3.0;',
  'const float FC4 = -1.25;',
  'const float FC5 = 0.5;',
];

class SysYGen {
  private readonly rng: Rng;
  private readonly o: SysYGenOptions;
  private readonly out: string[] = [];
  private ind = '';
  private readonly globals: Var[] = [];
  private readonly fns: Fn[] = [];
  private uniq = 0;
  private ctx!: Ctx;
  /** Nesting of index expressions being generated; bounds how deep a[b[c[...]]] goes. */
  private idxNest = 0;

  constructor(seed: number, o: SysYGenOptions) {
    this.rng = new Rng(seed);
    this.o = o;
  }

  private line(s: string): void { this.out.push(this.ind + s); }
  private open(s: string): void { this.line(s); this.ind += '  '; }
  private close(s = '}'): void { this.ind = this.ind.slice(2); this.line(s); }
  private fresh(p: string): string { return `${p}${this.uniq++}`; }

  private visible(pred: (v: Var) => boolean): Var[] {
    const res: Var[] = [];
    for (const g of this.globals) if (pred(g)) res.push(g);
    for (const s of this.ctx.scopes) for (const v of s) if (pred(v)) res.push(v);
    return res;
  }
  private declare(v: Var): void { this.ctx.scopes[this.ctx.scopes.length - 1]!.push(v); }
  private writable(v: Var): boolean {
    if (v.isConst || v.readonly) return false;
    if (this.ctx.pure && (v.global || (v.param && v.dims.length > 0))) return false;
    return true;
  }
  private mkVar(name: string, ty: Ty, dims: number[], extra: Partial<Var> = {}): Var {
    return { name, ty, dims, isConst: false, readonly: false, counter: false, global: false, param: false, bound: B, ...extra };
  }

  // ---- literals ----
  private intLit(max = 100): E {
    const r = this.rng;
    const v = r.chance(0.8) ? r.range(0, max) : r.range(0, B);
    const k = r.below(12);
    if (k === 0 && v > 0) return { s: `0x${v.toString(16)}`, b: v };
    if (k === 1 && v > 0) return { s: `0${v.toString(8)}`, b: v };
    return { s: `${v}`, b: v };
  }
  private floatLitText(): string {
    const v = this.rng.range(-4000, 4000) / 8;
    return Number.isInteger(v) ? `${v}.0` : `${v}`;
  }

  // ---- expressions ----

  /** Bring an int expression under `max` (at most B after the reduction). */
  private reduce(e: E, max: number): E {
    if (e.b <= max) return e;
    return { s: `(${e.s} % ${MOD})`, b: B };
  }

  private index(len: number): string {
    const r = this.rng;
    const counters = this.visible((v) => v.counter && v.bound < len);
    if (counters.length && r.chance(0.5)) return r.pick(counters).name;
    if (r.chance(0.25)) return `${r.below(len)}`;
    this.idxNest++;
    const e = this.intExpr(this.idxNest > 1 ? 0 : 1);
    this.idxNest--;
    return `(${e.s} % ${len} + ${len}) % ${len}`;
  }

  private elem(a: Var): string {
    let s = a.name;
    for (const d of a.dims) s += `[${this.index(d)}]`;
    return s;
  }

  private intLeaf(): E {
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

  private floatLeaf(): E {
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
  private scale(e: E, max: number): E {
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
  private storable(ty: Ty, d: number, cross = true): string {
    if (ty === 'int') {
      if (cross && this.o.floats && this.rng.chance(0.15)) return this.scale(this.floatExpr(d), B).s; // float -> int on store
      return this.reduce(this.intExpr(d), B).s;
    }
    if (cross && this.rng.chance(0.2)) return this.reduce(this.intExpr(d), B).s; // int -> float on store
    return this.scale(this.floatExpr(d), B).s;
  }

  /** A relational operand: an int or float expression. */
  private relOperand(d: number, float: boolean): string {
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

  private callable(pureOnly: boolean, ret: Ty | 'void' | null): Fn[] {
    const c = this.ctx;
    const limit = c.fn ? c.fn.index : this.fns.length;
    const res: Fn[] = [];
    for (let i = 0; i < limit; i++) {
      const f = this.fns[i]!;
      if ((pureOnly || c.pure) && !f.pure) continue;
      if (ret !== null && f.ret !== ret) continue;
      if (c.cost + c.mult * f.cost > c.budget) continue;
      res.push(f);
    }
    return res;
  }

  private arrayArg(p: Var): string {
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

  private args(f: Fn, d: number, depthArg: string | null): string {
    const out: string[] = [];
    for (const p of f.params) {
      if (p.name === 'depth' && depthArg !== null) out.push(depthArg);
      else if (p.dims.length) out.push(this.arrayArg(p));
      else out.push(this.storable(p.ty, Math.min(d, 2), false));
    }
    return out.join(', ');
  }

  private callExpr(pureOnly: boolean, ret: Ty | 'void' | null, d: number): E | null {
    const fs = this.callable(pureOnly, ret);
    if (!fs.length) return null;
    const f = this.rng.pick(fs);
    this.ctx.cost += this.ctx.mult * f.cost;
    const depthArg = f.recursive ? `${this.intExpr(1).s} % ${f.maxDepth + 1}` : null;
    return { s: `${f.name}(${this.args(f, d - 1, depthArg)})`, b: B };
  }

  // ---- statements ----

  private mixVar(v: Var): void {
    if (v.dims.length === 0) {
      if (v.ty === 'int') this.line(`acc = (acc * 31 + ${v.name}) % ${MOD};`);
      else { this.line(`ftmp = ${v.name};`); this.line(`acc = (acc * 31 + ftmp) % ${MOD};`); }
      return;
    }
    const k = this.fresh('k');
    const idx = v.dims.length === 1 ? `[${k}]` : `[${k} % ${v.dims[0]}][${k} / ${v.dims[0]}]`;
    const n = v.dims.reduce((a, b) => a * b, 1);
    this.open('{');
    this.line(`int ${k} = 0;`);
    this.open(`while (${k} < ${n}) {`);
    if (v.ty === 'int') this.line(`acc = (acc * 31 + ${v.name}${idx}) % ${MOD};`);
    else { this.line(`ftmp = ${v.name}${idx};`); this.line(`acc = (acc * 31 + ftmp) % ${MOD};`); }
    this.line(`${k} = ${k} + 1;`);
    this.close();
    this.close();
    this.ctx.cost += this.ctx.mult * n;
  }

  private pushScope(): void { this.ctx.scopes.push([]); }
  private popScope(): void {
    const s = this.ctx.scopes.pop()!;
    for (const v of s) if (!v.readonly) this.mixVar(v);
  }

  private block(n: number): void {
    const c = this.ctx;
    this.pushScope();
    c.depth++;
    for (let i = 0; i < n; i++) {
      if (c.cost + c.mult > c.budget) break;
      this.stmt();
    }
    c.depth--;
    this.popScope();
  }

  private stmtCount(): number {
    return this.rng.range(1, Math.max(1, this.o.maxStmts - this.ctx.depth));
  }

  private arrayInit(ty: Ty, dims: number[], exprs: boolean): string {
    const r = this.rng;
    const one = (): string => {
      if (exprs && r.chance(0.3)) return this.storable(ty, 1);
      return ty === 'int' ? this.intLit().s : this.floatLitText();
    };
    if (dims.length === 1) {
      const n = r.range(0, dims[0]!);
      const items: string[] = [];
      for (let i = 0; i < n; i++) items.push(one());
      return `{${items.join(', ')}}`;
    }
    const rows: string[] = [];
    const nr = r.range(0, dims[0]!);
    for (let i = 0; i < nr; i++) {
      const n = r.range(0, dims[1]!);
      const items: string[] = [];
      for (let j = 0; j < n; j++) items.push(one());
      rows.push(`{${items.join(', ')}}`);
    }
    return `{${rows.join(', ')}}`;
  }

  private declLocal(): void {
    const r = this.rng;
    const ty: Ty = this.o.floats && r.chance(0.3) ? 'float' : 'int';
    const k = r.below(10);
    if (k < 6) {
      const name = this.fresh('v');
      this.line(`${ty} ${name} = ${this.storable(ty, this.o.maxExprDepth - 1)};`);
      this.declare(this.mkVar(name, ty, []));
    } else if (k < 7) {
      const name = this.fresh('c');
      const lit = ty === 'int' ? this.intLit(B) : { s: this.floatLitText(), b: 500 };
      this.line(`const ${ty} ${name} = ${lit.s};`);
      this.declare(this.mkVar(name, ty, [], { isConst: true, bound: lit.b }));
    } else {
      const dims = this.o.arrays2d && r.chance(0.3) ? [r.range(2, 4), r.range(2, 5)] : [r.range(2, 10)];
      const name = this.fresh('a');
      this.line(`${ty} ${name}${dims.map((x) => `[${x}]`).join('')} = ${this.arrayInit(ty, dims, true)};`);
      this.ctx.cost += this.ctx.mult * 2;
      this.declare(this.mkVar(name, ty, dims));
    }
  }

  private loopTrip(): number {
    const c = this.ctx;
    const maxK = Math.min(this.o.maxTrip, Math.floor(this.o.maxLoopProduct / c.mult));
    if (maxK < 1) return 0;
    const k = this.rng.range(1, maxK);
    if (c.cost + c.mult * k * 3 > c.budget) return 0;
    return k;
  }

  private whileStmt(): boolean {
    const r = this.rng;
    const c = this.ctx;
    const k = this.loopTrip();
    if (!k) return false;
    const w = this.fresh('w');
    const up = r.chance(0.6);
    this.open('{');
    this.line(`int ${w} = ${up ? 0 : k};`);
    const extra = r.chance(0.2) ? ` && ${this.cond(2, true)}` : '';
    this.open(up ? `while (${w} < ${k}${extra}) {` : `while (${w} > 0${extra}) {`);
    this.line(up ? `${w} = ${w} + 1;` : `${w} = ${w} - 1;`);
    c.mult *= k;
    c.loopDepth++;
    this.pushScope();
    // Inside the body the counter is in [1, k] (up) or [0, k-1] (down).
    this.declare(this.mkVar(w, 'int', [], { readonly: true, counter: true, bound: k }));
    this.block(this.stmtCount());
    this.popScope();
    c.loopDepth--;
    c.mult /= k;
    this.close();
    this.close();
    return true;
  }

  private ifStmt(): void {
    this.open(`if (${this.cond(this.o.maxExprDepth)}) {`);
    this.block(this.stmtCount());
    if (this.rng.chance(0.5)) {
      this.close('} else {');
      this.ind += '  ';
      this.block(this.stmtCount());
    }
    this.close();
  }

  private printStmt(): void {
    const r = this.rng;
    const k = r.below(10);
    if (k < 5) {
      const vs = this.visible((v) => v.dims.length === 0);
      if (!vs.length) return;
      const v = r.pick(vs);
      this.line(`${v.ty === 'int' ? 'putint' : 'putfloat'}(${v.name});`);
      this.line(`putch(${r.chance(0.5) ? 10 : 32});`);
      return;
    }
    if (k < 8) {
      const as = this.visible((v) => v.ty === 'int' && v.dims.length > 0 && !v.isConst);
      if (!as.length) return;
      const a = r.pick(as);
      if (a.dims.length === 1) this.line(`putarray(${a.param ? Math.min(a.dims[0]!, 8) : a.dims[0]}, ${a.name});`);
      else this.line(`putarray(${a.dims[1]}, ${a.name}[${this.index(a.dims[0]!)}]);`);
      return;
    }
    if (k < 9 && this.o.floats) {
      const as = this.visible((v) => v.ty === 'float' && v.dims.length === 1 && !v.isConst);
      if (!as.length) return;
      const a = r.pick(as);
      this.line(`putfarray(${a.dims[0]}, ${a.name});`);
      return;
    }
    const e = this.reduce(this.intExpr(2), B);
    this.line(`putint(${e.s});`);
    this.line('putch(10);');
  }

  private callStmt(): boolean {
    const r = this.rng;
    const call = this.callExpr(false, null, 2);
    if (!call) return false;
    const fname = call.s.slice(0, call.s.indexOf('('));
    const f = this.fns.find((x) => x.name === fname)!;
    if (f.ret === 'void') { this.line(`${call.s};`); return true; }
    const locals = this.ctx.scopes.flat().filter((v) => v.dims.length === 0 && !v.readonly && !v.isConst && v.ty === f.ret);
    if (locals.length && r.chance(0.7)) this.line(`${r.pick(locals).name} = ${call.s};`);
    else if (f.ret === 'int' && r.chance(0.5)) this.line(`acc = (acc + ${call.s}) % ${MOD};`);
    else this.line(`${call.s};`);
    return true;
  }

  private stmt(): void {
    const r = this.rng;
    const c = this.ctx;
    c.cost += c.mult;
    const canNest = c.depth < this.o.maxDepth;
    for (let attempt = 0; attempt < 6; attempt++) {
      const k = r.weighted([
        24, // 0 scalar assignment
        12, // 1 element assignment
        10, // 2 declaration
        canNest ? 10 : 0, // 3 if
        canNest ? 9 : 0, // 4 while
        c.loopDepth ? 4 : 0, // 5 break / continue
        6, // 6 call
        !c.pure && c.mult <= 4 ? 3 : 0, // 7 output
        c.fn && c.depth > 1 ? 1 : 0, // 8 early return
      ]);
      switch (k) {
        case 0: {
          const vs = this.visible((v) => v.dims.length === 0 && this.writable(v));
          if (!vs.length) continue;
          const v = r.pick(vs);
          this.line(`${v.name} = ${this.storable(v.ty, this.o.maxExprDepth)};`);
          return;
        }
        case 1: {
          const as = this.visible((v) => v.dims.length > 0 && this.writable(v));
          if (!as.length) continue;
          const a = r.pick(as);
          this.line(`${this.elem(a)} = ${this.storable(a.ty, this.o.maxExprDepth)};`);
          return;
        }
        case 2: this.declLocal(); return;
        case 3: this.ifStmt(); return;
        case 4: if (this.whileStmt()) return; continue;
        case 5: this.line(`if (${this.cond(2)}) ${r.chance(0.5) ? 'break' : 'continue'};`); return;
        case 6: if (this.callStmt()) return; continue;
        case 7: this.printStmt(); return;
        case 8: {
          const f = c.fn!;
          if (f.ret === 'void') this.line(`if (${this.cond(2)}) return;`);
          else this.line(`if (${this.cond(2)}) return ${this.storable(f.ret, 2, false)};`);
          return;
        }
        default: continue;
      }
    }
    this.line(`acc = (acc + ${this.reduce(this.intExpr(2), B).s}) % ${MOD};`);
  }

  // ---- top level ----

  private genGlobals(): void {
    const r = this.rng;
    const o = this.o;
    if (o.floats) { for (const l of SCALE_DECL) this.line(l); for (const l of FCONST_DECL) this.line(l); }
    const g = (v: Var): void => { this.globals.push({ ...v, global: true }); };
    for (let i = 0; i < o.globals; i++) {
      const ty: Ty = o.floats && r.chance(0.3) ? 'float' : 'int';
      const isConst = r.chance(0.25);
      const name = isConst ? `gc${i}` : `g${i}`;
      const lit = ty === 'int' ? this.intLit(B) : { s: this.floatLitText(), b: 500 };
      this.line(`${isConst ? 'const ' : ''}${ty} ${name} = ${lit.s};`);
      g(this.mkVar(name, ty, [], { isConst, bound: isConst ? lit.b : B }));
    }
    // Arrays: one int and one float 1-D array of length 16 and one int [4][8] matrix
    // always exist, so every array parameter has an argument.
    const arrays: [Ty, number[]][] = [['int', [16]]];
    if (o.arrays2d) arrays.push(['int', [4, 8]]);
    if (o.floats) arrays.push(['float', [16]]);
    if (o.floats && o.arrays2d) arrays.push(['float', [4, 8]]);
    const fixed = arrays.length;
    const extra = Math.floor(o.globals / 2);
    for (let i = 0; i < extra; i++) {
      const ty: Ty = o.floats && r.chance(0.3) ? 'float' : 'int';
      arrays.push([ty, o.arrays2d && r.chance(0.35) ? [r.range(2, 5), r.pick([3, 5, 8])] : [r.range(3, 20)]]);
    }
    for (let i = 0; i < arrays.length; i++) {
      const [ty, dims] = arrays[i]!;
      const isConst = i >= fixed && r.chance(0.25);
      const name = isConst ? `gk${i}` : `ga${i}`;
      this.line(`${isConst ? 'const ' : ''}${ty} ${name}${dims.map((x) => `[${x}]`).join('')} = ${this.arrayInit(ty, dims, false)};`);
      g(this.mkVar(name, ty, dims, { isConst }));
    }
    this.line('int crc = 0;');
  }

  private genFunction(index: number): void {
    const r = this.rng;
    const o = this.o;
    const name = `f${index}`;
    const rk = r.below(10);
    const ret: Ty | 'void' = rk < 2 ? 'void' : o.floats && rk < 4 ? 'float' : 'int';
    const pure = ret !== 'void' && r.chance(0.35);
    const recursive = o.recursion && ret === 'int' && r.chance(0.12);
    const params: Var[] = [];
    if (recursive) params.push(this.mkVar('depth', 'int', [], { readonly: true, param: true, bound: 12 }));
    const np = r.range(1, 4);
    for (let i = 0; i < np; i++) {
      const kk = r.below(10);
      if (kk < 6) params.push(this.mkVar(`p${i}`, o.floats && r.chance(0.3) ? 'float' : 'int', [], { param: true }));
      else if (kk < 8 || !o.arrays2d) params.push(this.mkVar(`p${i}`, o.floats && r.chance(0.25) ? 'float' : 'int', [r.range(1, 16)], { param: true }));
      else params.push(this.mkVar(`p${i}`, o.floats && r.chance(0.25) ? 'float' : 'int', [r.range(1, 4), r.pick([3, 5, 8])], { param: true }));
    }
    // A [][C] parameter needs an argument with exactly C columns: make sure one exists.
    for (const p of params) {
      if (p.dims.length === 2 && !this.globals.some((v) => !v.isConst && v.ty === p.ty && v.dims.length === 2 && v.dims[1] === p.dims[1] && v.dims[0]! >= p.dims[0]!)) {
        p.dims = [p.dims[0]!, 8];
        if (!this.globals.some((v) => !v.isConst && v.ty === p.ty && v.dims.length === 2 && v.dims[1] === 8)) p.dims = [16];
      }
    }
    const maxDepth = recursive ? r.range(2, 12) : 0;
    const f: Fn = { name, index, ret, params, pure, recursive, maxDepth, cost: 0 };
    const levels = recursive ? maxDepth + 1 : 1;
    this.ctx = {
      fn: f, pure, scopes: [params.slice()], mult: 1, cost: 0,
      budget: Math.max(20, Math.floor(o.workBudget / levels)), loopDepth: 0, depth: 0,
    };
    const decl = params.map((p) => {
      if (p.dims.length === 0) return `${p.ty} ${p.name}`;
      if (p.dims.length === 1) return `${p.ty} ${p.name}[]`;
      return `${p.ty} ${p.name}[][${p.dims[1]}]`;
    });
    this.line(`// ${pure ? 'pure' : 'impure'}${recursive ? `, recursive to depth ${maxDepth}` : ''}`);
    this.open(`${ret} ${name}(${decl.join(', ')}) {`);
    this.line(`int acc = ${r.range(1, 1000)};`);
    this.line('int ftmp = 0;');
    const n = o.size === 'large' ? r.range(Math.max(2, o.maxStmts - 3), o.maxStmts) : r.range(2, o.maxStmts);
    this.block(n);
    if (recursive) {
      this.open('if (depth > 0) {');
      this.line(`acc = (acc * 31 + ${name}(${this.args(f, 2, 'depth - 1')})) % ${MOD};`);
      this.close();
    }
    for (const p of params) if (p.dims.length === 0 && p.name !== 'depth') this.mixVar(p);
    this.line('ftmp = ftmp + 1;');
    if (!pure) {
      this.line(`crc = (crc * 7 + acc) % ${MOD};`);
      if (this.ctx.mult === 1 && r.chance(0.4)) { this.line('putint(acc);'); this.line('putch(10);'); }
    }
    if (ret === 'int') this.line(`return (acc + ${this.reduce(this.intExpr(2), B).s}) % ${MOD};`);
    else if (ret === 'float') this.line(`return ${this.scale({ s: `(acc + ${this.scale(this.floatExpr(2), B).s})`, b: 2 * B }, B).s};`);
    else this.line('return;');
    this.close();
    this.line('');
    f.cost = Math.max(1, this.ctx.cost + 2) * levels;
    this.fns.push(f);
  }

  private genMain(): void {
    const r = this.rng;
    const o = this.o;
    const total = this.fns.reduce((s, f) => s + f.cost, 0);
    this.ctx = {
      fn: null, pure: false, scopes: [[]], mult: 1, cost: 0,
      budget: o.workBudget * 2 + total, loopDepth: 0, depth: 0,
    };
    this.open('int main() {');
    this.line('int acc = 0;');
    this.line('int ftmp = 0;');
    if (o.size !== 'large') this.block(r.range(2, o.maxStmts + 2));
    for (let i = 0; i < this.fns.length; i++) {
      const f = this.fns[i]!;
      const call = `${f.name}(${this.args(f, 2, f.recursive ? `${f.maxDepth}` : null)})`;
      if (f.ret === 'int') this.line(`acc = (acc * 31 + ${call}) % ${MOD};`);
      else if (f.ret === 'float') { this.line(`ftmp = ${call};`); this.line(`acc = (acc * 31 + ftmp) % ${MOD};`); }
      else this.line(`${call};`);
      if (o.size === 'large' ? i % 32 === 31 : r.chance(0.3)) { this.line('putint(acc);'); this.line('putch(10);'); }
    }
    for (const g of this.globals) if (!g.isConst) this.mixVar(g);
    this.line('putint(crc);');
    this.line('putch(32);');
    this.line('putint(acc);');
    this.line('putch(10);');
    this.line('return ((acc + crc) % 256 + 256) % 256;');
    this.close();
  }

  generate(): string {
    const o = this.o;
    this.line('// Generated by ssakit src/fuzz/sysy-gen.ts: well-defined SysY 2022, deterministic output.');
    this.genGlobals();
    this.line('');
    if (o.size === 'large') {
      // main needs about one line per function plus the folding of the globals.
      const mainLines = (): number => Math.ceil(this.fns.length * 1.1) + this.globals.length * 7 + 12;
      for (let i = 0; this.out.length + mainLines() < o.targetLines; i++) this.genFunction(i);
    } else {
      for (let i = 0; i < o.functions; i++) this.genFunction(i);
    }
    this.genMain();
    return this.out.join('\n') + '\n';
  }
}

/**
 * A deterministic, overflow-free SysY program for `seed`. It prints with putint/putch/
 * putarray/putfloat and returns a value in 0..255 from main. Prefix SYSY_C_PRELUDE to
 * compile it as C.
 */
export function generateSysYProgram(seed: number, opts?: Partial<SysYGenOptions>): string {
  return new SysYGen(seed, resolveSysYGenOptions(opts)).generate();
}
