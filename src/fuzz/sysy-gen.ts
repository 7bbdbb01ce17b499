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

import { B, FCONST_DECL, type Fn, MOD, resolveSysYGenOptions, SCALE_DECL, SysYExprGen, type SysYGenOptions, type Ty, type Var } from './sysy-gen-expr.js';
export { resolveSysYGenOptions, SYSY_C_PRELUDE, type SysYGenOptions } from './sysy-gen-expr.js';

class SysYGen extends SysYExprGen {
  // ---- statements ----

  protected mixVar(v: Var): void {
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

  protected stmt(): void {
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

  protected genGlobals(): void {
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

  protected genFunction(index: number): void {
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
    this.ctx = this.baseCtx(f, levels);
    const decl = params.map((p) => {
      if (p.dims.length === 0) return `${p.ty} ${p.name}`;
      if (p.dims.length === 1) return `${p.ty} ${p.name}[]`;
      return `${p.ty} ${p.name}[][${p.dims[1]}]`;
    });
    this.line(`// ${pure ? 'pure' : 'impure'}${recursive ? `, recursive to depth ${maxDepth}` : ''}`);
    this.open(`${ret} ${name}(${decl.join(', ')}) {`);
    this.line(`int acc = ${r.range(1, 1000)};`);
    this.line('int ftmp = 0;');
    this.block(this.bodyCount());
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
    this.finishFunction(f, levels);
  }

  protected genMain(): void {
    const r = this.rng;
    const o = this.o;
    this.ctx = this.baseCtx(null, 1);
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
    return this.program(['// Generated by ssakit src/fuzz/sysy-gen.ts: well-defined SysY 2022, deterministic output.'], 7);
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
