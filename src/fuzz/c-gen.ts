// Seeded generator of well-defined C programs, in the spirit of Csmith (Yang, Chen,
// Eide, Regehr: "Finding and Understanding Bugs in C Compilers", PLDI 2011) but
// restricted to what ssakit's interpreter runs (printf only) and shaped to exercise an
// SSA middle-end: loops of every form, switches, gotos, calls, narrow integer types,
// arrays, pointers into arrays and small structs.
//
// Invariants that make every program free of undefined behaviour by construction:
//  - signed + - * are either done in the unsigned type and converted back (wrapping is
//    implementation-defined, not undefined) or on operands narrowed by %, & or >> so
//    that the exact result fits; unary minus goes through unsigned too;
//  - / and % have a divisor that cannot be 0 and a dividend that cannot be the
//    minimum value when the divisor could be -1 ((a|1)/(b|1), a/((b&255)+1), const);
//  - shift counts are masked below the width of the promoted left operand, and left
//    shifts of signed values are done in unsigned;
//  - array and pointer indices are reduced modulo the (known) length of the object;
//  - every variable is initialised where it is declared; loops have constant trip
//    counts (their counters are never assigned in the body) and their products are
//    capped, calls only go to functions defined earlier (plus one self-call with a
//    decreasing depth), so every program terminates quickly;
//  - functions are "pure" (no output, no writes to globals or through pointers) or
//    not; impure calls appear only as whole statements, so the output never depends on
//    the unspecified order of evaluation of operands or arguments.
// Every local is folded into a per-function checksum at the end of its block, so no
// computation is dead and clang -Wall reports no unused variables.

import { ALL_TYPES, ARITH, CExprGen, type CGenOptions, type Fn, INT, isArith, LONG, promoted, resolveCGenOptions, type StructDef, TYPE_NAME, TYPE_SIGNED, UCHAR, UINT, ULONG, UNSIGNED_OF, type Var, VK } from './c-gen-expr.js';
export { type CGenOptions, resolveCGenOptions } from './c-gen-expr.js';
export { generateSysYProgram, SYSY_C_PRELUDE } from './sysy-gen.js';
export type { SysYGenOptions } from './sysy-gen.js';

class CGen extends CExprGen {
  // ---- statements ----

  protected mixVar(v: Var): void {
    const name = v.name;
    switch (v.kind) {
      case VK.Scalar: this.line(`acc = acc * 31UL + (unsigned long)${name};`); break;
      case VK.Struct: this.line(`acc = acc * 31UL + (unsigned long)${name}.${v.sdef!.fields[0]!.name} + (unsigned long)${name}.${v.sdef!.fields[v.sdef!.fields.length - 1]!.name};`); break;
      case VK.Array: {
        const i = this.fresh('k');
        this.line(`for (int ${i} = 0; ${i} < ${v.len}; ${i}++) acc = acc * 31UL + (unsigned long)${name}[${i}];`);
        this.ctx.cost += this.ctx.mult * v.len;
        break;
      }
      case VK.StructArray: {
        const i = this.fresh('k');
        this.line(`for (int ${i} = 0; ${i} < ${v.len}; ${i}++) acc = acc * 31UL + (unsigned long)${name}[${i}].${v.sdef!.fields[0]!.name};`);
        this.ctx.cost += this.ctx.mult * v.len;
        break;
      }
      default: break;
    }
  }

  /** A braced block: `{` already emitted by the caller's open(). */
  protected override block(n: number): void {
    const c = this.ctx;
    const saved = c.noDeclTop;
    c.noDeclTop = false;
    super.block(n);
    c.noDeclTop = saved;
  }

  private assignScalar(v: Var): void {
    const r = this.rng;
    const t = v.ty;
    const d = this.o.maxExprDepth;
    if (!isArith(t)) {
      const k = r.below(4);
      if (k === 0) this.line(`${v.name} = (${TYPE_NAME[t]})(${this.expr(INT, d)});`);
      else if (k === 1) this.line(`${v.name} ${r.pick(['^=', '|=', '&='])} ${this.expr(INT, d)};`);
      else if (k === 2) this.line(`${v.name}${r.pick(['++', '--'])};`);
      else this.line(`${v.name} = (${TYPE_NAME[t]})(${v.name} + (${this.expr(INT, d - 1)} & 0xffff));`);
      return;
    }
    const e = this.expr(t, d);
    if (!TYPE_SIGNED[t]) {
      this.line(`${v.name} ${r.pick(['=', '=', '+=', '-=', '*=', '^=', '|=', '&='])} ${e};`);
      return;
    }
    const k = r.below(4);
    if (k < 2) this.line(`${v.name} = ${e};`);
    else if (k === 2) this.line(`${v.name} ${r.pick(['^=', '|=', '&='])} ${e};`);
    else this.line(`${v.name} = (${TYPE_NAME[t]})((${TYPE_NAME[UNSIGNED_OF[t]!]})${v.name} ${r.pick(['+', '-', '*'])} (${TYPE_NAME[UNSIGNED_OF[t]!]})(${e}));`);
  }

  private assignLvalue(lv: string, t: number): void {
    const r = this.rng;
    const d = this.o.maxExprDepth;
    if (!isArith(t)) {
      if (r.chance(0.7)) this.line(`${lv} = (${TYPE_NAME[t]})(${this.expr(INT, d)});`);
      else this.line(`${lv} ^= ${this.expr(INT, d - 1)};`);
      return;
    }
    if (!TYPE_SIGNED[t] && r.chance(0.4)) { this.line(`${lv} ${r.pick(['+=', '^=', '*=', '-='])} ${this.expr(t, d)};`); return; }
    if (r.chance(0.3)) { this.line(`${lv} ${r.pick(['^=', '|=', '&='])} ${this.expr(t, d)};`); return; }
    this.line(`${lv} = ${this.expr(t, d)};`);
  }

  private declLocal(): void {
    const r = this.rng;
    const c = this.ctx;
    const k = r.below(10);
    if (k < 6) {
      const t = r.pick(ALL_TYPES);
      const name = this.fresh('v');
      const init = isArith(t) ? this.expr(t, this.o.maxExprDepth - 1) : `(${TYPE_NAME[t]})(${this.expr(INT, 2)})`;
      this.line(`${TYPE_NAME[t]} ${name} = ${init};`);
      this.declare({ name, kind: VK.Scalar, ty: t, len: 0, readonly: false, global: false, sdef: null, isConst: false });
      return;
    }
    if (k < 9 || !this.structs.length) {
      const t = r.pick(ALL_TYPES);
      const len = r.range(2, 10);
      const name = this.fresh('a');
      const n = r.range(1, len);
      const items: string[] = [];
      for (let i = 0; i < n; i++) {
        if (!(r.chance(0.3) && i < 3)) { items.push(this.constOf(t)); continue; }
        const e = this.expr(promoted(t), 1);
        items.push(isArith(t) ? e : `(${TYPE_NAME[t]})(${e})`); // runtime initialisers of narrow elements need the cast
      }
      this.line(`${TYPE_NAME[t]} ${name}[${len}] = {${items.join(', ')}};`);
      c.cost += c.mult;
      this.declare({ name, kind: VK.Array, ty: t, len, readonly: false, global: false, sdef: null, isConst: false });
      return;
    }
    const sd = r.pick(this.structs);
    const name = this.fresh('s');
    const srcs = this.visible((v) => (v.kind === VK.Struct || v.kind === VK.StructArray) && v.sdef === sd);
    if (srcs.length && r.chance(0.5)) {
      const s = r.pick(srcs);
      this.line(`struct ${sd.name} ${name} = ${s.kind === VK.Struct ? s.name : `${s.name}[${this.index(s.len, 1)}]`};`);
    } else {
      this.line(`struct ${sd.name} ${name} = {${sd.fields.map((f) => this.constOf(f.ty)).join(', ')}};`);
    }
    this.declare({ name, kind: VK.Struct, ty: 0, len: 0, readonly: false, global: false, sdef: sd, isConst: false });
  }

  private loopBody(k: number, counter: Var | null): void {
    const c = this.ctx;
    c.mult *= k;
    c.loopDepth++;
    c.breakable++;
    this.pushScope();
    if (counter) this.declare(counter);
    this.block(this.stmtCount());
    this.popScope();
    c.breakable--;
    c.loopDepth--;
    c.mult /= k;
  }

  private loop(): boolean {
    const r = this.rng;
    const k = this.loopTrip();
    if (!k) return false;
    const form = r.below(6);
    const i = this.fresh('i');
    const ro = (ty: number): Var => ({ name: i, kind: VK.Scalar, ty, len: 0, readonly: true, global: false, sdef: null, isConst: false });
    if (form === 0) {
      this.open(`for (int ${i} = 0; ${i} < ${k}; ${i}++) {`);
      this.loopBody(k, ro(INT));
      this.close();
    } else if (form === 1) {
      const step = r.range(2, 5);
      const start = r.range(-10, 10);
      this.open(`for (long ${i} = ${start}L; ${i} < ${start + step * k}L; ${i} += ${step}) {`);
      this.loopBody(k, ro(LONG));
      this.close();
    } else if (form === 2) {
      this.open(`for (unsigned ${i} = ${k}u; ${i} > 0u; ${i}--) {`);
      this.loopBody(k, ro(UINT));
      this.close();
    } else if (form === 3) {
      // while with the decrement in the condition, so `continue` cannot skip it
      this.open('{');
      this.line(`int ${i} = ${k};`);
      this.open(`while (${i}-- > 0) {`);
      this.loopBody(k, ro(INT));
      this.close();
      this.close();
    } else if (form === 4) {
      this.open('{');
      this.line(`unsigned char ${i} = ${k};`);
      this.open('do {');
      this.loopBody(k, ro(UCHAR));
      this.close(`} while (--${i} > 0);`);
      this.close();
    } else {
      // a loop whose exit test is in the middle: for (;;) with a counted break
      this.open('{');
      this.line(`int ${i} = 0;`);
      this.open('for (;;) {');
      this.line(`if (${i}++ >= ${k - 1}) break;`);
      this.loopBody(k, ro(INT));
      this.close();
      this.close();
    }
    return true;
  }

  private switchStmt(): void {
    const r = this.rng;
    const c = this.ctx;
    const n = r.range(2, 5);
    let sel: string;
    let labels: string[];
    if (r.chance(0.6)) {
      const m = r.range(n, n + 3);
      sel = `(unsigned)(${this.expr(r.pick(ARITH), 2)}) % ${m}u`;
      const vals = new Set<number>();
      while (vals.size < n) vals.add(r.below(m));
      labels = [...vals].map((v) => `${v}`);
    } else {
      const t = r.chance(0.7) ? INT : LONG;
      sel = this.expr(t, 2);
      const vals = new Set<string>();
      while (vals.size < n) vals.add(r.chance(0.5) ? this.constOf(t, true) : this.constOf(t));
      labels = [...vals];
    }
    this.open(`switch (${sel}) {`);
    c.breakable++;
    const withDefault = r.chance(0.6);
    const all = withDefault ? [...labels, 'default'] : labels;
    for (let i = 0; i < all.length; i++) {
      const lab = all[i] === 'default' ? 'default:' : `case ${all[i]}:`;
      this.open(`${lab} {`);
      this.block(Math.max(1, this.stmtCount() - 1));
      const fall = i + 1 < all.length && r.chance(0.25);
      this.close(fall ? '} /* fallthrough */' : '} break;');
    }
    c.breakable--;
    this.close();
  }

  private ifStmt(): void {
    const r = this.rng;
    this.open(`if (${this.cond(this.o.maxExprDepth)}) {`);
    this.block(this.stmtCount());
    if (r.chance(0.5)) {
      if (r.chance(0.3) && this.ctx.depth + 1 < this.o.maxDepth) {
        this.close(`} else if (${this.cond(this.o.maxExprDepth - 1)}) {`);
        this.ind += '  ';
        this.block(this.stmtCount());
      }
      this.close('} else {');
      this.ind += '  ';
      this.block(this.stmtCount());
    }
    this.close();
  }

  private gotoStmt(): boolean {
    const r = this.rng;
    const c = this.ctx;
    const lab = this.fresh('L');
    if (r.chance(0.5)) {
      // forward: skip a region; nothing may be declared at its top level
      this.open('{');
      this.line(`if (${this.cond(2)}) goto ${lab};`);
      this.pushScope();
      const saved = c.noDeclTop;
      c.noDeclTop = true;
      c.depth++;
      const n = this.stmtCount();
      for (let i = 0; i < n && c.cost + c.mult <= c.budget; i++) this.stmt();
      c.depth--;
      c.noDeclTop = saved;
      this.popScope();
      this.line(`${lab}:;`);
      this.close();
      return true;
    }
    // backward: a counted loop made of a label and a conditional goto
    const k = this.loopTrip();
    if (!k) return false;
    const g = this.fresh('gc');
    this.countedLoopBody(g, k, lab);
    this.line(`if (--${g} > 0) goto ${lab};`);
    this.close();
    return true;
  }

  /**
   * Opens the block of a loop made of gotos: its counter `g` set to the trip count `k`, the
   * label `lab` and the body (its cost multiplied by k); the caller writes the back edge
   * and closes the block.
   */
  private countedLoopBody(g: string, k: number, lab: string): void {
    const c = this.ctx;
    this.open('{');
    this.line(`int ${g} = ${k};`);
    this.line(`${lab}:;`);
    c.mult *= k;
    this.pushScope();
    c.depth++;
    const n = this.stmtCount();
    for (let i = 0; i < n && c.cost + c.mult <= c.budget; i++) this.stmt();
    c.depth--;
    this.popScope();
    c.mult /= k;
  }

  /**
   * Computed goto (the fuzzers' source of blockaddress and indirectbr), in two shapes:
   * a dispatch `goto *tbl[e % n]` through a static table of label addresses into n arms
   * (some falling through to the next, as interpreter loops' handlers do), and a counted
   * loop whose back edge is `goto *(--gc > 0 ? &&L : &&E)`. Arms are compound statements,
   * so no declaration is jumped over at the region's top level.
   */
  private computedGotoStmt(): boolean {
    const r = this.rng;
    const c = this.ctx;
    if (r.chance(0.5)) {
      const n = r.range(2, 4);
      const labs: string[] = [];
      for (let i = 0; i < n; i++) labs.push(this.fresh('CG'));
      const end = this.fresh('CG');
      const tbl = this.fresh('cgt');
      this.open('{');
      this.line(`static void *const ${tbl}[] = { ${labs.map((l) => `&&${l}`).join(', ')} };`);
      this.line(`goto *${tbl}[(unsigned)(${this.expr(r.pick(ARITH), 2)}) % ${n}u];`);
      for (let i = 0; i < n; i++) {
        this.open(`${labs[i]}: {`);
        this.pushScope();
        c.depth++;
        this.block(Math.max(1, this.stmtCount() - 1));
        c.depth--;
        this.popScope();
        this.close(i + 1 < n && r.chance(0.3) ? '} /* fallthrough */' : r.chance(0.5) ? `} goto ${end};` : `} goto *(&&${end});`);
      }
      this.line(`${end}:;`);
      this.close();
      return true;
    }
    const k = this.loopTrip();
    if (!k) return false;
    const lab = this.fresh('CG');
    const end = this.fresh('CG');
    const g = this.fresh('gc');
    this.countedLoopBody(g, k, lab);
    this.line(`goto *(--${g} > 0 ? &&${lab} : &&${end});`);
    this.line(`${end}:;`);
    this.close();
    return true;
  }

  private printStmt(): void {
    const r = this.rng;
    const vs = this.visible((v) => v.kind === VK.Scalar);
    if (!vs.length) return;
    const n = r.range(1, 3);
    const fmts: string[] = [];
    const args: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = r.pick(vs);
      const hex = r.chance(0.3);
      switch (v.ty) {
        case INT: fmts.push('%d'); args.push(v.name); break;
        case UINT: fmts.push(hex ? '%x' : '%u'); args.push(v.name); break;
        case LONG: fmts.push('%ld'); args.push(v.name); break;
        case ULONG: fmts.push(hex ? '%lx' : '%lu'); args.push(v.name); break;
        default: fmts.push('%d'); args.push(v.name); break;
      }
    }
    const tag = this.ctx.fn ? this.ctx.fn.name : 'main';
    this.line(`printf("${tag}: ${fmts.join(' ')}\\n", ${args.join(', ')});`);
  }

  private callStmt(): boolean {
    const r = this.rng;
    const call = this.callExpr(false, 2);
    if (!call) return false;
    const locals = this.ctx.scopes.flat().filter((v) => v.kind === VK.Scalar && !v.readonly);
    if (locals.length && r.chance(0.6)) {
      const v = r.pick(locals);
      this.line(`${v.name} = ${isArith(v.ty) ? this.castTo(v.ty, call.ret, call.text) : `(${TYPE_NAME[v.ty]})${call.text}`};`);
    } else if (r.chance(0.5)) {
      this.line(`acc = acc * 31UL + (unsigned long)${call.text};`);
    } else {
      this.line(`${call.text};`);
    }
    return true;
  }

  protected stmt(): void {
    const r = this.rng;
    const c = this.ctx;
    c.cost += c.mult;
    const canNest = c.depth < this.o.maxDepth;
    for (let attempt = 0; attempt < 6; attempt++) {
      const k = r.weighted([
        22, // 0 assign scalar
        10, // 1 assign array/ptr element
        c.noDeclTop ? 0 : 10, // 2 declaration
        canNest ? 10 : 0, // 3 if
        canNest ? 9 : 0, // 4 loop
        canNest && this.o.switches ? 4 : 0, // 5 switch
        canNest && this.o.gotos ? 2 : 0, // 6 goto
        c.breakable ? 4 : 0, // 7 break / continue
        6, // 8 call
        !c.pure && c.mult <= 4 ? 3 : 0, // 9 printf
        c.fn && c.depth > 1 ? 1 : 0, // 10 early return
        this.structs.length ? 3 : 0, // 11 struct assignment
        canNest && this.o.computedGotos ? 3 : 0, // 12 computed goto (last: a zero weight leaves other seeds' programs unchanged)
      ]);
      switch (k) {
        case 0: {
          const vs = this.visible((v) => v.kind === VK.Scalar && this.writable(v));
          if (!vs.length) continue;
          this.assignScalar(r.pick(vs));
          return;
        }
        case 1: {
          const as = this.visible((v) => (v.kind === VK.Array || v.kind === VK.Ptr) && this.writable(v));
          if (!as.length) continue;
          const a = r.pick(as);
          const lv = a.kind === VK.Ptr && r.chance(0.3) ? `*(${a.name} + ${r.below(a.len)})` : `${a.name}[${this.index(a.len, 2)}]`;
          this.assignLvalue(lv, a.ty);
          return;
        }
        case 2: this.declLocal(); return;
        case 3: this.ifStmt(); return;
        case 4: if (this.loop()) return; continue;
        case 5: this.switchStmt(); return;
        case 6: if (this.gotoStmt()) return; continue;
        case 7: {
          const what = c.loopDepth && r.chance(0.5) ? 'continue' : 'break';
          if (what === 'continue' && !c.loopDepth) continue;
          this.line(`if (${this.cond(2)}) ${what};`);
          return;
        }
        case 8: if (this.callStmt()) return; continue;
        case 9: this.printStmt(); return;
        case 10: {
          const f = c.fn!;
          this.line(`if (${this.cond(2)}) return ${this.castTo(f.ret, ULONG, `(acc + (unsigned long)(${this.expr(f.ret, 2)}))`)};`);
          return;
        }
        case 11: {
          const ss = this.visible((v) => (v.kind === VK.Struct || v.kind === VK.StructArray) && this.writable(v));
          if (!ss.length) continue;
          const s = r.pick(ss);
          const base = s.kind === VK.Struct ? s.name : `${s.name}[${this.index(s.len, 2)}]`;
          const same = this.visible((v) => v.kind === VK.Struct && v.sdef === s.sdef && v !== s);
          if (same.length && r.chance(0.3)) { this.line(`${base} = ${r.pick(same).name};`); return; }
          const f = r.pick(s.sdef!.fields);
          this.assignLvalue(`${base}.${f.name}`, f.ty);
          return;
        }
        case 12: if (this.computedGotoStmt()) return; continue;
        default: continue;
      }
    }
    // Fallback that always works: fold something into the checksum.
    this.line(`acc ^= (unsigned long)(${this.expr(ULONG, 2)});`);
  }

  // ---- top level ----

  private genStructs(): void {
    if (!this.o.structs) return;
    const r = this.rng;
    const n = r.range(1, 2);
    for (let i = 0; i < n; i++) {
      const nf = r.range(2, 5);
      const fields: { name: string; ty: number }[] = [];
      for (let j = 0; j < nf; j++) fields.push({ name: `f${j}`, ty: r.pick(ALL_TYPES) });
      const sd = { name: `S${i}`, fields };
      this.structs.push(sd);
      this.line(`struct S${i} { ${fields.map((f) => `${TYPE_NAME[f.ty]} ${f.name};`).join(' ')} };`);
    }
  }

  protected genGlobals(): void {
    this.genStructs();
    const r = this.rng;
    const g = (v: Omit<Var, 'global' | 'readonly' | 'sdef' | 'isConst'> & Partial<Var>): void => {
      this.globals.push({ readonly: false, global: true, sdef: null, isConst: false, ...v });
    };
    for (let i = 0; i < this.o.globals; i++) {
      const t = r.pick(ALL_TYPES);
      const name = `g${i}`;
      this.line(`static ${TYPE_NAME[t]} ${name} = ${this.constOf(t)};`);
      g({ name, kind: VK.Scalar, ty: t, len: 0 });
    }
    // One array of each element type, long enough for any pointer parameter.
    const nArr = Math.max(ALL_TYPES.length, Math.floor(this.o.globals / 2));
    for (let i = 0; i < nArr; i++) {
      const t = i < ALL_TYPES.length ? ALL_TYPES[i]! : r.pick(ALL_TYPES);
      const len = i < ALL_TYPES.length ? 16 : r.range(3, 24);
      const name = `ga${i}`;
      const isConst = i >= ALL_TYPES.length && r.chance(0.3);
      const n = r.range(1, len);
      const items: string[] = [];
      for (let j = 0; j < n; j++) items.push(this.constOf(t));
      this.line(`static ${isConst ? 'const ' : ''}${TYPE_NAME[t]} ${name}[${len}] = {${items.join(', ')}};`);
      g({ name, kind: VK.Array, ty: t, len, isConst });
    }
    for (let i = 0; i < this.structs.length; i++) {
      const sd = this.structs[i]!;
      const init = (): string => `{${sd.fields.map((f) => this.constOf(f.ty)).join(', ')}}`;
      this.line(`static struct ${sd.name} gs${i} = ${init()};`);
      g({ name: `gs${i}`, kind: VK.Struct, ty: 0, len: 0, sdef: sd });
      const len = r.range(2, 5);
      const items: string[] = [];
      for (let j = 0; j < len; j++) items.push(init());
      this.line(`static struct ${sd.name} gsa${i}[${len}] = {${items.join(', ')}};`);
      g({ name: `gsa${i}`, kind: VK.StructArray, ty: 0, len, sdef: sd });
    }
    this.line('static unsigned long crc = 0;');
  }

  protected genFunction(index: number): void {
    const r = this.rng;
    const o = this.o;
    const name = `f${index}`;
    const ret = r.pick(ARITH);
    const pure = r.chance(0.35);
    const recursive = o.recursion && r.chance(0.12);
    const params: Var[] = [];
    const mk = (pname: string, kind: VK, ty: number, len: number, sdef: StructDef | null = null): Var =>
      ({ name: pname, kind, ty, len, readonly: false, global: false, sdef, isConst: false });
    if (recursive) params.push({ ...mk('depth', VK.Scalar, INT, 0), readonly: true });
    const np = r.range(1, 4);
    for (let i = 0; i < np; i++) params.push(mk(`p${i}`, VK.Scalar, r.pick(ALL_TYPES), 0));
    if (o.pointers && r.chance(0.4)) params.push(mk('q0', VK.Ptr, r.pick(ALL_TYPES), r.range(1, 16)));
    if (this.structs.length && r.chance(0.25)) { const sd = r.pick(this.structs); params.push(mk('sp0', VK.Struct, 0, 0, sd)); }
    const maxDepth = recursive ? r.range(2, 12) : 0;
    const f: Fn = { name, index, ret, params, pure, recursive, maxDepth, cost: 0 };
    const levels = recursive ? maxDepth + 1 : 1;
    this.ctx = { ...this.baseCtx(f, levels), breakable: 0, noDeclTop: false };
    const decl = params.map((p) => {
      if (p.kind === VK.Ptr) return `${TYPE_NAME[p.ty]} *${p.name}`;
      if (p.kind === VK.Struct) return `struct ${p.sdef!.name} ${p.name}`;
      return `${TYPE_NAME[p.ty]} ${p.name}`;
    });
    this.line(`/* ${pure ? 'pure' : 'impure'}${recursive ? `, recursive to depth ${maxDepth}` : ''}${params.some((p) => p.kind === VK.Ptr) ? ', q0 has ' + params.find((p) => p.kind === VK.Ptr)!.len + ' elements' : ''} */`);
    this.open(`static ${TYPE_NAME[ret]} ${name}(${decl.join(', ')}) {`);
    this.line(`unsigned long acc = ${r.range(1, 1000)}UL;`);
    this.block(this.bodyCount());
    if (recursive) {
      const args = this.args(f, 2, 'depth - 1');
      this.line(`if (depth > 0) acc = acc * 31UL + (unsigned long)${name}(${args});`);
    }
    for (const p of params) if (p.kind === VK.Scalar && p.name !== 'depth') this.line(`acc = acc * 31UL + (unsigned long)${p.name};`);
    if (!pure) {
      this.line('crc = crc * 1000003UL ^ acc;');
      if (this.ctx.mult === 1 && r.chance(0.5)) this.line(`printf("${name}: %lu\\n", acc);`);
    }
    this.line(`return ${this.castTo(ret, ULONG, `(acc + (unsigned long)(${this.expr(ret, 2)}))`)};`);
    this.finishFunction(f, levels);
  }

  protected genMain(): void {
    const r = this.rng;
    const o = this.o;
    this.ctx = { ...this.baseCtx(null, 1), breakable: 0, noDeclTop: false };
    this.open('int main(void) {');
    this.line('unsigned long acc = 0;');
    if (o.size !== 'large') this.block(r.range(2, o.maxStmts + 2));
    // Every function is called at least once from main, at statement level.
    for (let i = 0; i < this.fns.length; i++) {
      const f = this.fns[i]!;
      const depthArg = f.recursive ? `${f.maxDepth}` : null;
      this.line(`acc = acc * 31UL + (unsigned long)${f.name}(${this.args(f, 2, depthArg)});`);
      if (o.size === 'large' ? i % 32 === 31 : r.chance(0.3)) this.line('printf("acc %lu\\n", acc);');
    }
    for (const g of this.globals) this.mixVar(g);
    this.line('printf("crc %lu acc %lu\\n", crc, acc);');
    this.line('return (int)((acc ^ crc) % 256UL);');
    this.close();
  }

  generate(): string {
    return this.program(['/* Generated by ssakit src/fuzz/c-gen.ts: well-defined C, deterministic output. */', '#include <stdio.h>', ''], 2);
  }
}

/**
 * A deterministic, UB-free C program for `seed`. It prints checksums with printf and
 * returns a value in 0..255 from main. Same seed and options give the same text.
 */
export function generateCProgram(seed: number, opts?: Partial<CGenOptions>): string {
  return new CGen(seed, resolveCGenOptions(opts)).generate();
}
