// What the C generator (c-gen.ts) and the SysY generator (sysy-gen.ts) share: the size
// presets' common fields, the output buffer with its indentation, scopes of variables,
// the cost model that keeps every program's run time bounded (a work budget per call,
// a multiplier per enclosing loop), the choice of callable functions, and the program
// skeleton (globals, functions until the target size, main).
//
// Invariants: every helper draws from the generator's Rng in the same order the two
// generators did before they shared it (a seed's program is the same text), and no
// helper emits anything the language-specific hooks did not ask for.
import { Rng } from './rng.js';

/** The options both generators take (each adds its own language features). */
export interface GenSizeOptions {
  /** Preset for the other fields: small (~100-300 lines), medium (~300-900), large (targetLines). */
  size: 'small' | 'medium' | 'large';
  /** Large mode: keep adding functions until the program has about this many lines. */
  targetLines: number;
  /** Number of functions besides main (ignored in large mode). */
  functions: number;
  /** Maximum statements per block. */
  maxStmts: number;
  /** Maximum nesting of compound statements. */
  maxDepth: number;
  /** Maximum expression depth. */
  maxExprDepth: number;
  /** Maximum trip count of one loop. */
  maxTrip: number;
  /** Maximum product of the trip counts of nested loops. */
  maxLoopProduct: number;
  /** Estimated dynamic statements one call of a function may execute (callees included). */
  workBudget: number;
  /** Number of global scalars (arrays are added in proportion). */
  globals: number;
}

type SizeFields = Omit<GenSizeOptions, 'size'>;
/** The size presets' common fields: small, medium and large. */
export const SIZE_PRESETS: Record<GenSizeOptions['size'], SizeFields> = {
  small: { targetLines: 0, functions: 3, maxStmts: 5, maxDepth: 3, maxExprDepth: 3, maxTrip: 8, maxLoopProduct: 64, workBudget: 3000, globals: 6 },
  medium: { targetLines: 0, functions: 7, maxStmts: 7, maxDepth: 4, maxExprDepth: 4, maxTrip: 12, maxLoopProduct: 150, workBudget: 12000, globals: 10 },
  large: { targetLines: 100_000, functions: 0, maxStmts: 8, maxDepth: 4, maxExprDepth: 4, maxTrip: 3, maxLoopProduct: 6, workBudget: 400, globals: 40 },
};

/** The options for `opts` filled in from the preset of its size and the language's feature defaults. */
export function resolveOptions<O extends GenSizeOptions>(opts: Partial<O>, features: Omit<O, keyof GenSizeOptions>): O {
  const size = opts.size ?? 'medium';
  return { ...SIZE_PRESETS[size], ...features, ...opts, size } as O;
}

export interface GenVar {
  name: string;
  readonly: boolean;
  isConst: boolean;
  global: boolean;
}

export interface GenFn<V> {
  name: string;
  index: number;
  params: V[];
  pure: boolean;
  recursive: boolean;
  maxDepth: number; // recursion: deepest depth argument accepted
  cost: number;
}

export interface GenCtx<V, F> {
  fn: F | null; // null for main
  pure: boolean;
  scopes: V[][];
  mult: number;
  cost: number;
  budget: number;
  loopDepth: number;
  depth: number;
}

export abstract class ProgramGen<V extends GenVar, F extends GenFn<V>, C extends GenCtx<V, F>, O extends GenSizeOptions> {
  protected readonly rng: Rng;
  protected readonly out: string[] = [];
  protected ind = '';
  protected readonly globals: V[] = [];
  protected readonly fns: F[] = [];
  protected uniq = 0;
  protected ctx!: C;

  constructor(seed: number, protected readonly o: O) {
    this.rng = new Rng(seed);
  }

  // ---- output ----
  protected line(s: string): void { this.out.push(this.ind + s); }
  protected open(s: string): void { this.line(s); this.ind += '  '; }
  protected close(s = '}'): void { this.ind = this.ind.slice(2); this.line(s); }
  protected fresh(prefix: string): string { return `${prefix}${this.uniq++}`; }

  // ---- scopes ----
  protected visible(pred: (v: V) => boolean): V[] {
    const res: V[] = [];
    for (const g of this.globals) if (pred(g)) res.push(g);
    for (const s of this.ctx.scopes) for (const v of s) if (pred(v)) res.push(v);
    return res;
  }
  protected declare(v: V): void { this.ctx.scopes[this.ctx.scopes.length - 1]!.push(v); }
  protected pushScope(): void { this.ctx.scopes.push([]); }
  /** Closes a scope, folding its writable variables into the checksum. */
  protected popScope(): void {
    const s = this.ctx.scopes.pop()!;
    for (const v of s) if (!v.readonly) this.mixVar(v);
  }

  /** Folds `v` into the function's checksum `acc`. */
  protected abstract mixVar(v: V): void;
  protected abstract stmt(): void;
  protected abstract genGlobals(): void;
  protected abstract genFunction(index: number): void;
  protected abstract genMain(): void;

  /** A braced block's statements (the caller emitted the `{`), while the budget lasts. */
  protected block(n: number): void {
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

  protected stmtCount(): number {
    return this.rng.range(1, Math.max(1, this.o.maxStmts - this.ctx.depth));
  }

  /** Statements in a function's body. */
  protected bodyCount(): number {
    const o = this.o;
    return o.size === 'large' ? this.rng.range(Math.max(2, o.maxStmts - 3), o.maxStmts) : this.rng.range(2, o.maxStmts);
  }

  /** A trip count for a new loop within the caps, or 0 when no loop fits here. */
  protected loopTrip(): number {
    const c = this.ctx;
    const maxK = Math.min(this.o.maxTrip, Math.floor(this.o.maxLoopProduct / c.mult));
    if (maxK < 1) return 0;
    const k = this.rng.range(1, maxK);
    if (c.cost + c.mult * k * 3 > c.budget) return 0;
    return k;
  }

  // ---- calls ----
  /** Functions defined before the current one that fit the budget (pure ones in a pure context). */
  protected callable(pureOnly: boolean, accept: (f: F) => boolean = () => true): F[] {
    const c = this.ctx;
    const limit = c.fn ? c.fn.index : this.fns.length;
    const res: F[] = [];
    for (let i = 0; i < limit; i++) {
      const f = this.fns[i]!;
      if ((pureOnly || c.pure) && !f.pure) continue;
      if (!accept(f)) continue;
      if (c.cost + c.mult * f.cost > c.budget) continue;
      res.push(f);
    }
    return res;
  }

  /** The common fields of a function's context (its budget shared by its recursion levels) or main's (f null). */
  protected baseCtx(f: F | null, levels: number): GenCtx<V, F> {
    const o = this.o;
    if (f === null) {
      const total = this.fns.reduce((s, g) => s + g.cost, 0);
      return { fn: null, pure: false, scopes: [[]], mult: 1, cost: 0, budget: o.workBudget * 2 + total, loopDepth: 0, depth: 0 };
    }
    return { fn: f, pure: f.pure, scopes: [f.params.slice()], mult: 1, cost: 0, budget: Math.max(20, Math.floor(o.workBudget / levels)), loopDepth: 0, depth: 0 };
  }

  /** Closes function `f`'s body and records its cost (what one call may execute). */
  protected finishFunction(f: F, levels: number): void {
    this.close();
    this.line('');
    f.cost = Math.max(1, this.ctx.cost + 2) * levels;
    this.fns.push(f);
  }

  /** The program after `header`: globals, functions (until targetLines in large mode), main. */
  protected program(header: string[], mainLinesPerGlobal: number): string {
    const o = this.o;
    for (const h of header) this.line(h);
    this.genGlobals();
    this.line('');
    if (o.size === 'large') {
      // main needs about one line per function plus the folding of the globals.
      const mainLines = (): number => Math.ceil(this.fns.length * 1.1) + this.globals.length * mainLinesPerGlobal + 12;
      for (let i = 0; this.out.length + mainLines() < o.targetLines; i++) this.genFunction(i);
    } else {
      for (let i = 0; i < o.functions; i++) this.genFunction(i);
    }
    this.genMain();
    return this.out.join('\n') + '\n';
  }
}
