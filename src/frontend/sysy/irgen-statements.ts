/**
 * The walk of a function body (the trampoline `exec` and its deep-expression twin `execDeep`)
 * and the statements of SysY: blocks, declarations, assignments, if, while, break, continue,
 * return; the last class of the function generator chain (see irgen-function.ts).
 */
import { BasicBlock } from '../../ir/basic-block.js';

import { ConstantInt } from '../../ir/constants.js';
import { MDNode } from '../../ir/metadata.js';
import { allocSize } from '../../ir/layout.js';
import { floatType, i8, voidType } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import type { Assign, Block, DeclStmt, Expr, If, Return, Stmt, VarDecl, While } from './ast.js';
import { BraunVars } from './irgen-vars.js';
import { arrayIRType, isZeroBits, nonZeroEntries, scalarConstant } from './lower-init.js';
import { CondTask, FALSE, Gen, Task, ZERO_F, ZERO_I, c64 } from './irgen-function.js';
import { ExpressionGen } from './irgen-expressions.js';

/** Tasks whose position starts a new line-table row under `-g`. */
const STATEMENT_OR_CALL = new Set(['DeclStmt', 'Assign', 'ExprStmt', 'If', 'While', 'Break', 'Continue', 'Return', 'Call']);

export class FunctionGen extends ExpressionGen {
  run(): void {
    const d = this.decl;
    const fn = this.fn;
    for (let i = 0; i < d.params.length; i++) {
      const p = d.params[i];
      fn.args[i].name = this.uniq(p.name);
      this.vars.param(p, fn.args[i]);
      if (this.sp !== null) this.describeVariable(p, i + 1, fn.args[i]);
    }
    this.exec(d.body!);
    if (this.cur !== null) {
      const rt = fn.returnType;
      if (rt === voidType) this.b.ret();
      else this.b.ret(rt === floatType ? ZERO_F : ZERO_I);
      this.cur = null;
    }
    this.vars.finish();
    // -g: the variables are the subprogram's retained nodes, so debuggers list those that
    // optimization left without a location too (as clang -O2 -g does)
    if (this.sp !== null && this.diVars.size > 0) this.sp.setField('retainedNodes', new MDNode('', [...this.diVars.values()], null));
    const st = this.mg.stats;
    if (this.vars instanceof BraunVars) {
      const s = this.vars.stats;
      st.phisCreated += s.phisCreated;
      st.phisRemoved += s.phisRemovedTrivial + s.phisRemovedByHook + s.phisRemovedRedundant;
      this.namePhis();
    }
    st.folded += this.values.folded;
    st.cseHits += this.values.reused;
  }
  // ---- the walk ---------------------------------------------------------------------------
  //
  // Statements are generators run by `exec`, a trampoline with a heap stack (walk.ts's
  // walkDeep, specialised). Expressions and conditions a statement yields are evaluated by
  // plain recursion (`value`, `cond`, `truthValue`) while they are shallow, which is what
  // nearly every program needs and allocates nothing; at depth MAX_RECURSION the subtree
  // is handed to `execDeep`, a trampoline whose generators never recurse, so the JS stack
  // holds at most MAX_RECURSION expression frames whatever the input.

  /** Runs the generator of statement `root` and of every statement it yields. */
  protected exec(root: Task): void {
    const stack: Gen[] = [this.visit(root)];
    let input: Value | null = null;
    while (stack.length > 0) {
      const step = stack[stack.length - 1].next(input);
      if (step.done === true) {
        stack.pop();
        input = null;
        continue;
      }
      const t = step.value;
      switch (t.kind) {
        case 'Cond':
          this.cond(t.e, t.t, t.f, 0);
          input = null;
          break;
        case 'Truth':
          input = this.truthValue(t.e, 0);
          break;
        case 'IntLiteral':
        case 'FloatLiteral':
        case 'StringLiteral':
        case 'LVal':
        case 'Call':
        case 'Unary':
        case 'Binary':
        case 'Logical':
        case 'Convert':
          input = this.value(t, 0);
          break;
        default:
          stack.push(this.visit(t));
          input = null;
      }
    }
  }

  /** Evaluates a deep task with generators only (no recursion at all). */
  protected execDeep(root: Task): Value | null {
    const stack: Gen[] = [this.visit(root)];
    let input: Value | null = null;
    while (stack.length > 0) {
      const step = stack[stack.length - 1].next(input);
      if (step.done === true) {
        stack.pop();
        input = step.value;
        continue;
      }
      const t = step.value;
      const leaf = this.leaf(t);
      if (leaf !== null) {
        input = leaf;
        continue;
      }
      stack.push(this.visit(t));
      input = null;
    }
    return input;
  }

  /** The value of a leaf expression (constant, scalar variable); null for other tasks. */
  protected leaf(t: Task): Value | null {
    switch (t.kind) {
      case 'IntLiteral':
      case 'FloatLiteral':
      case 'Unary':
      case 'Binary':
      case 'Logical':
      case 'Convert':
        return t.constValue !== undefined ? this.constantOf(t) : null;
      case 'LVal':
        if (t.constValue !== undefined) return this.constantOf(t);
        if (t.indices.length !== 0 || t.access !== 'load') return null;
        return this.readScalar(t.decl!);
      default:
        return null;
    }
  }

  protected visit(t: Task): Gen {
    // -g: instructions of a statement (and of a call inside it) get its line and column
    if (this.sp !== null && STATEMENT_OR_CALL.has(t.kind)) this.b.debugLoc = this.mg.debug!.location(this.sp, (t as { pos: number }).pos);
    switch (t.kind) {
      case 'Cond':
        return this.genCond(t);
      case 'Truth':
        return this.genTruth(t);
      case 'Block':
        return this.genBlock(t);
      case 'DeclStmt':
        return this.genDecl(t);
      case 'Assign':
        return this.genAssign(t);
      case 'ExprStmt':
        return this.genExprStmt(t.expr);
      case 'If':
        return this.genIf(t);
      case 'While':
        return this.genWhile(t);
      case 'Break':
      case 'Continue':
      case 'Empty':
        return this.genJump(t);
      case 'Return':
        return this.genReturn(t);
      case 'LVal':
        return this.genLVal(t);
      case 'Call':
        return this.genCall(t);
      case 'Unary':
        return this.genUnary(t);
      case 'Binary':
        return this.genBinary(t);
      case 'Logical':
        return this.genLogical(t);
      case 'Convert':
        return this.genConvert(t);
      default:
        return this.genConstant(t);
    }
  }

  // ---- statements -----------------------------------------------------------------------------

  protected *genBlock(s: Block): Gen {
    const items = s.items;
    for (let i = 0; i < items.length; i++) {
      if (this.cur === null) break;
      yield items[i];
    }
    return null;
  }

  protected *genDecl(s: DeclStmt): Gen {
    for (const d of s.decls) {
      if (this.cur === null) break;
      if (d.type.kind === 'array') {
        yield* this.genLocalArray(d);
        continue;
      }
      // const scalars are folded into every use (sema sets constValue on them)
      if (d.isConst) continue;
      this.vars.local(d);
      if (this.sp !== null) this.describeVariable(d, 0, null);
      const init = d.initializer;
      if (init !== null && init.kind === 'scalar') {
        const v = (yield init.expr)!;
        this.vars.write(d, this.cur!, v);
        if (this.sp !== null) this.describeValue(d, v);
      }
    }
    return null;
  }

  /** An entry-block alloca; with an initializer, memset to zero and stores (or a memcpy). */
  protected *genLocalArray(d: VarDecl): Gen {
    const t = d.type;
    if (t.kind !== 'array') return null;
    const type = arrayIRType(d.elem, t.dims);
    const a = this.entryAlloca(type, d.name);
    this.declValue[d.id] = a;
    if (this.sp !== null) this.describeVariable(d, 0, null);
    const init = d.initializer;
    if (init === null || init.kind !== 'array') return null;
    const bytes = allocSize(type);
    const entries = init.entries;
    let allConst = true;
    for (let k = 0; k < entries.length; k++) {
      if (entries[k].expr.constValue === undefined) {
        allConst = false;
        break;
      }
    }
    if (allConst && nonZeroEntries(init).index.length > 16) {
      const g = this.mg.constArray(this.decl.name, d, t.dims);
      this.b.call(this.mg.memcpy(), [a, g, c64(bytes), FALSE]);
      return null;
    }
    if (entries.length < init.size) this.b.call(this.mg.memset(), [a, ConstantInt.get(i8, 0), c64(bytes), FALSE]);
    const dims = t.dims;
    for (let k = 0; k < entries.length; k++) {
      const e = entries[k];
      const c = e.expr.constValue;
      let v: Value;
      if (c !== undefined) {
        if (isZeroBits(c) && entries.length < init.size) continue;
        v = scalarConstant(d.elem, c);
      } else {
        v = (yield e.expr)!;
      }
      const idx = new Array<Value>(dims.length + 1);
      idx[0] = c64(0);
      let rest = e.index;
      for (let j = dims.length - 1; j >= 0; j--) {
        idx[j + 1] = c64(rest % dims[j]);
        rest = Math.floor(rest / dims[j]);
      }
      this.b.store(v, this.values.gep(type, a, idx));
    }
    return null;
  }

  protected *genAssign(s: Assign): Gen {
    // clang evaluates the right-hand side first, then the target's subscripts
    const v = (yield s.value)!;
    const t = s.target;
    const d = t.decl!;
    const ix = t.indices;
    if (ix.length === 0) {
      if (d.storage === 'global') this.b.store(v, this.mg.globals[d.id]!);
      else {
        this.vars.write(d, this.cur!, v);
        if (this.sp !== null) this.describeValue(d, v);
      }
      return null;
    }
    const vals = new Array<Value>(ix.length);
    for (let k = 0; k < ix.length; k++) vals[k] = (yield ix[k])!;
    this.b.store(v, this.addressOf(d, vals));
    return null;
  }

  protected *genExprStmt(e: Expr): Gen {
    // `a;` for an array names it and does nothing
    if (e.kind === 'LVal' && e.access === 'address') return null;
    yield e;
    return null;
  }

  protected *genIf(s: If): Gen {
    const start = this.cur;
    const thenBB = this.block('if.then');
    const elseBB = s.else !== null ? this.block('if.else') : null;
    const endBB = this.block('if.end');
    yield new CondTask(s.cond, thenBB, elseBB ?? endBB);
    this.enter(thenBB);
    if (this.cur !== null) {
      yield s.then;
      this.br(endBB);
    }
    if (elseBB !== null) {
      this.enter(elseBB);
      if (this.cur !== null) {
        yield s.else!;
        this.br(endBB);
      }
    }
    this.enter(endBB);
    this.joined(endBB, start, s);
    return null;
  }

  /** Tells the variable model that `bb`, just entered, joins or heads `s`, which began at the end of `start`. */
  protected joined(bb: BasicBlock, start: BasicBlock | null, s: If | While): void {
    if (this.assignedIn !== null && start !== null && this.cur === bb) this.vars.join(bb, start, this.assignedIn.of(s));
  }

  protected *genWhile(s: While): Gen {
    const condBB = this.block('while.cond');
    const bodyBB = this.block('while.body');
    const endBB = this.block('while.end');
    this.loops.push({ cond: condBB, end: endBB });
    const start = this.cur;
    this.br(condBB);
    this.enter(condBB, false);
    this.joined(condBB, start, s);
    yield new CondTask(s.cond, bodyBB, endBB);
    this.enter(bodyBB);
    if (this.cur !== null) {
      yield s.body;
      this.br(condBB);
    }
    this.loops.pop();
    this.vars.seal(condBB);
    this.enter(endBB);
    this.joined(endBB, start, s);
    return null;
  }

  protected *genJump(s: Stmt): Gen {
    if (s.kind === 'Break') this.br(this.loops[this.loops.length - 1].end);
    else if (s.kind === 'Continue') this.br(this.loops[this.loops.length - 1].cond);
    return null;
  }

  protected *genReturn(s: Return): Gen {
    if (s.value === null) this.b.ret();
    else this.b.ret((yield s.value)!);
    this.cur = null;
    return null;
  }
}
