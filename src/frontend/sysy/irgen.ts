/**
 * IR generation for SysY: the annotated tree of ast.ts → an LLVM-style Module.
 *
 * Two modes share this file and differ only in where local scalars live (irgen-vars.ts)
 * and in how pure values are made (irgen-values.ts):
 *   - `braun` (default): SSA built directly by the Braun SSABuilder, with on-the-fly
 *     constant folding, algebraic simplification and local CSE (unless `fold: false`);
 *   - `alloca`: clang -O0 style, every local in an alloca, for mem2reg to promote.
 *
 * Shapes (what clang emits for the same program compiled as C, minus `nsw`: SysY ints
 * wrap in two's complement at run time, so no arithmetic carries poison flags):
 *   int → i32, float → float, arrays → `[N x T]` allocas/globals, array parameters → ptr;
 *   element addresses are one `getelementptr inbounds` over the array (or pointee) type
 *   with i64 indices (`sext` of the i32 subscripts); comparisons used as values are
 *   `zext i1 … to i32`; conditions branch directly (`icmp ne x, 0`, `fcmp une x, 0.0`),
 *   `&&`/`||` short-circuit with branches, and as values merge an i1 with a phi;
 *   `putf`'s float arguments are `fpext` to double; local array initializers are a
 *   `llvm.memset` to zero plus stores of the non-zero elements (or a `llvm.memcpy` from a
 *   private constant when the initializer is constant and big); global initializers use
 *   lower-init.ts's compact shapes; runtime functions are declared only when called;
 *   `starttime()`/`stoptime()` become `_sysy_starttime(i32 line)`/`_sysy_stoptime`.
 *
 * Control flow: blocks are appended to the function when code starts in them, so a block
 * nobody branches to is never emitted (code after `return`/`break`/`continue`, or the arm
 * of an `if` whose condition folded to a constant). A function that can fall off its end
 * returns 0 (what C99 specifies for main; any value is allowed for the others).
 *
 * No recursion whose depth grows with the input: statements are generators driven by an
 * explicit stack (the trampoline `exec`, as walk.ts's walkDeep); expressions are evaluated
 * by plain recursion up to a fixed depth (fast, allocation-free, enough for real programs)
 * and below that by the same generator walk (`execDeep`), so 10,000 nested parentheses,
 * blocks, `if`s or `while`s compile with a bounded JS stack. Both walks give the same IR.
 */
import { BasicBlock } from '../../ir/basic-block.js';
import { IRBuilder } from '../../ir/builder.js';
import { MDNode } from '../../ir/metadata.js';
import { SysYDebugInfo } from './debug-info.js';

/** Tasks whose position starts a new line-table row under `-g`. */
const STATEMENT_OR_CALL = new Set(['DeclStmt', 'Assign', 'ExprStmt', 'If', 'While', 'Break', 'Continue', 'Return', 'Call']);
import { Constant, ConstantFP, ConstantInt, ConstantString } from '../../ir/constants.js';
import { Function, GlobalVariable } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import { allocSize, abiAlign } from '../../ir/layout.js';
import { Module } from '../../ir/module.js';
import { Opcode, Pred } from '../../ir/opcodes.js';
import { Type, doubleType, floatType, functionType, i1, i32, i64, i8, ptr, voidType } from '../../ir/types.js';
import { type Argument, type Value, ValueKind } from '../../ir/value.js';
import type {
  ArrayType,
  PointerType,
  Assign,
  Block,
  Call,
  DeclStmt,
  Expr,
  FuncDecl,
  If,
  LVal,
  Logical,
  Program,
  Return,
  Stmt,
  Type as SyType,
  VarDecl,
  While,
} from './ast.js';
import { ExprTable, FoldingValues, PlainValues, type ValueMaker } from './irgen-values.js';
import { AllocaVars, BraunVars, type VarHost, type VarModel } from './irgen-vars.js';
import { AssignedVariables } from './assigned.js';
import { arrayConstant, arrayIRType, isZeroBits, nonZeroEntries, scalarConstant, scalarIRType } from './lower-init.js';

export type SSAMode = 'braun' | 'alloca';

export interface IRGenOptions {
  /** How local scalars become SSA (default 'braun'). */
  ssa?: SSAMode;
  /** Braun mode's on-the-fly folding, simplification and local CSE (default true). */
  fold?: boolean;
  /**
   * Expression depth evaluated by plain recursion before the explicit-stack walk takes over
   * (default 200). Tests set 0 to run every expression through the explicit-stack walk.
   */
  recursionLimit?: number;
  /**
   * Debug info (`-g`): a DICompileUnit for the file, a DISubprogram per function and a
   * DILocation (line and column of the statement, or of the call) on every instruction
   * generated, as clang -g gives C (default false). See sysy-debug-info.ts.
   */
  debugInfo?: boolean;
}

export interface IRGenStats {
  functions: number;
  phisCreated: number;
  phisRemoved: number;
  folded: number;
  cseHits: number;
}

export const X86_64_DATA_LAYOUT = 'e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128';
export const X86_64_TRIPLE = 'x86_64-pc-linux-gnu';

/** Lowers a checked program (no error diagnostics) to a module. */
export function generateIR(program: Program, opts: IRGenOptions = {}, stats?: IRGenStats): Module {
  const g = new ModuleGen(program, opts);
  g.run();
  if (stats) Object.assign(stats, g.stats);
  return g.module;
}

// ---------------------------------------------------------------------------- module

class ModuleGen {
  readonly module: Module;
  readonly mode: SSAMode;
  readonly fold: boolean;
  readonly recursionLimit: number;
  readonly stats: IRGenStats = { functions: 0, phisCreated: 0, phisRemoved: 0, folded: 0, cseHits: 0 };
  /** Global variables by declaration id. */
  readonly globals: (GlobalVariable | null)[];
  private readonly pointee: (Type | null)[];
  readonly cseTable = new ExprTable();
  /** i32 constants by value (ConstantInt.get goes through a bigint map above 1023). */
  private readonly ints = new Map<number, ConstantInt>();
  /** float constants by value (not -0.0). */
  readonly floats = new Map<number, ConstantFP>();
  /** Per-declaration storage shared by the functions (see VarHost). */
  readonly declValue: (Value | null)[];
  readonly declNumber: Int32Array;
  readonly assigned: Uint8Array;
  /** Functions by FuncDecl id. */
  private readonly functions: (Function | null)[];
  private readonly strings = new Map<string, GlobalVariable>();
  private memsetFn: Function | null = null;
  private memcpyFn: Function | null = null;

  constructor(readonly program: Program, opts: IRGenOptions) {
    this.mode = opts.ssa ?? 'braun';
    this.fold = opts.fold ?? true;
    this.recursionLimit = Math.max(0, opts.recursionLimit ?? MAX_RECURSION);
    this.declValue = new Array<Value | null>(program.declCount).fill(null);
    this.globals = new Array<GlobalVariable | null>(program.declCount).fill(null);
    this.pointee = new Array<Type | null>(program.declCount).fill(null);
    this.functions = new Array<Function | null>(program.declCount).fill(null);
    this.declNumber = new Int32Array(Math.max(1, program.declCount));
    this.assigned = new Uint8Array(Math.max(1, program.declCount));
    const name = program.source.name;
    const m = (this.module = new Module(name));
    m.sourceFilename = name;
    m.dataLayout = X86_64_DATA_LAYOUT;
    m.triple = X86_64_TRIPLE;
    this.debug = opts.debugInfo ? new SysYDebugInfo(m, program.source) : null;
  }

  /** Debug info being made (`debugInfo`), or null. */
  readonly debug: SysYDebugInfo | null;

  run(): void {
    const p = this.program;
    for (const d of p.globals) this.defineGlobal(d);
    for (const f of p.functions) this.functionFor(f);
    for (const f of p.functions) {
      const fg = new FunctionGen(this, f, this.functionFor(f));
      fg.run();
      this.stats.functions++;
    }
  }

  private defineGlobal(d: VarDecl): void {
    let type: Type;
    let init: Constant;
    if (d.type.kind === 'array') {
      const a = arrayConstant(d.elem, d.type.dims, d.initializer);
      type = a.type;
      init = a.init;
    } else {
      type = scalarIRType(d.elem);
      const e = d.initializer !== null && d.initializer.kind === 'scalar' ? d.initializer.expr : null;
      init = scalarConstant(d.elem, e === null ? 0 : e.constValue ?? 0);
    }
    const g = new GlobalVariable(d.name, type, init, d.isConst);
    g.attrs.prefix = 'dso_local';
    g.align = globalAlign(type);
    this.module.addGlobal(g);
    this.globals[d.id] = g;
  }

  /** The IR function of a user or runtime function (created on first request). */
  functionFor(f: FuncDecl): Function {
    const target = f.definition ?? f;
    let fn = this.functions[target.id];
    if (fn !== null) return fn;
    const params: Type[] = [];
    for (const p of target.params) params.push(irType(p.type));
    if (target.lineArgument) params.push(i32);
    const ft = functionType(irType(target.returnType), params, target.isVariadic);
    fn = new Function(target.linkName, ft, target.body !== null ? target.params.map((p) => p.name) : []);
    if (target.body !== null) fn.attrs.prefix = 'dso_local';
    this.module.addFunction(fn);
    this.functions[target.id] = fn;
    return fn;
  }

  /** `@.str.N = private unnamed_addr constant [k x i8] c"...\00"`, one per distinct text. */
  stringConstant(s: string): GlobalVariable {
    let g = this.strings.get(s);
    if (g !== undefined) return g;
    const c = ConstantString.fromString(s);
    // names with a dot cannot clash with SysY identifiers; a counter keeps this O(1)
    const n = this.strings.size;
    g = new GlobalVariable(this.module.uniqueName(n === 0 ? '.str' : `.str.${n}`), c.type, c, true);
    g.attrs.linkage = 'private';
    g.attrs.prefix = 'unnamed_addr';
    g.align = 1;
    this.module.addGlobal(g);
    this.strings.set(s, g);
    return g;
  }

  /** A private constant holding a local array's initial value (clang's `@__const.f.a`). */
  constArray(fnName: string, d: VarDecl, dims: readonly number[]): GlobalVariable {
    const a = arrayConstant(d.elem, dims, d.initializer);
    const g = new GlobalVariable(this.module.uniqueName(`__const.${fnName}.${d.name}`), a.type, a.init, true);
    g.attrs.linkage = 'private';
    g.attrs.prefix = 'unnamed_addr';
    g.align = globalAlign(a.type);
    this.module.addGlobal(g);
    return g;
  }

  /** The GEP source type for subscripts of an array or array parameter (cached per declaration). */
  pointeeType(d: VarDecl): Type {
    let t = this.pointee[d.id];
    if (t === null) {
      const st = d.type as ArrayType | PointerType;
      t = st.kind === 'pointer' && st.dims.length === 0 ? scalarIRType(st.elem) : arrayIRType(st.elem, st.dims);
      this.pointee[d.id] = t;
    }
    return t;
  }

  int(v: number): ConstantInt {
    if (v >= -128 && v < 1024) return ConstantInt.get(i32, v);
    let c = this.ints.get(v);
    if (c === undefined) this.ints.set(v, (c = ConstantInt.get(i32, v)));
    return c;
  }

  // SysY names cannot contain '.', so the intrinsics' names are always free
  memset(): Function {
    return (this.memsetFn ??= this.module.getOrInsertFunction('llvm.memset.p0.i64', functionType(voidType, [ptr, i8, i64, i1]))!);
  }

  memcpy(): Function {
    return (this.memcpyFn ??= this.module.getOrInsertFunction('llvm.memcpy.p0.p0.i64', functionType(voidType, [ptr, ptr, i64, i1]))!);
  }
}

function globalAlign(t: Type): number {
  return allocSize(t) >= 16 ? 16 : abiAlign(t);
}

/** The LLVM type of a SysY type (as a value: arrays are never values, pointers are ptr). */
function irType(t: SyType): Type {
  switch (t.kind) {
    case 'int':
      return i32;
    case 'float':
      return floatType;
    case 'void':
      return voidType;
    case 'double':
      return doubleType;
    case 'array':
      return arrayIRType(t.elem, t.dims);
    default:
      // pointer (array parameter), string (putf's format)
      return ptr;
  }
}

/** `i64 k`, cached for the small indices that dominate. */
const C64_CACHE: ConstantInt[] = [];
function c64(k: number): ConstantInt {
  if (k >= 0 && k < 4096) {
    let c = C64_CACHE[k];
    if (c === undefined) {
      for (let j = C64_CACHE.length; j <= k; j++) C64_CACHE.push(ConstantInt.get(i64, j));
      c = C64_CACHE[k];
    }
    return c;
  }
  return ConstantInt.get(i64, k);
}
const FALSE = ConstantInt.false();
const EMPTY: Value[] = [];
/** Expression depth handled by plain recursion before switching to the generator walk. */
const MAX_RECURSION = 200;

const TRUE = ConstantInt.true();
const ZERO_F = ConstantFP.get(floatType, 0);
const ZERO_I = ConstantInt.get(i32, 0);

// ---------------------------------------------------------------------------- function

/** "Branch on the truth of `e` to `t` or `f`": a task of the trampoline next to the nodes. */
class CondTask {
  readonly kind = 'Cond' as const;
  constructor(
    readonly e: Expr,
    readonly t: BasicBlock,
    readonly f: BasicBlock,
  ) {}
}

/** "The truth of `e` as an i1" (the right operand of a `&&`/`||` value). */
class TruthTask {
  readonly kind = 'Truth' as const;
  constructor(readonly e: Expr) {}
}

type Task = Stmt | DeclStmt | Expr | CondTask | TruthTask;
type Gen = Generator<Task, Value | null, Value | null>;

interface LoopTargets {
  cond: BasicBlock;
  end: BasicBlock;
}

class FunctionGen implements VarHost {
  readonly b = new IRBuilder();
  private readonly vars: VarModel;
  private readonly values: ValueMaker;
  private readonly entry: BasicBlock;
  private lastAlloca: Instruction | null = null;
  /** The block being filled, or null in unreachable code. */
  private cur: BasicBlock | null;
  /** The block the value maker's CSE table describes. */
  private filling: BasicBlock;
  private readonly loops: LoopTargets[] = [];
  readonly declValue: (Value | null)[];
  readonly declNumber: Int32Array;
  readonly assigned: Uint8Array;
  /** Braun mode: the locals each `if` and `while` assigns. */
  private assignedIn: AssignedVariables | null = null;
  private readonly nameCount = new Map<string, number>();
  private readonly maxDepth: number;

  constructor(
    private readonly mg: ModuleGen,
    private readonly decl: FuncDecl,
    readonly fn: Function,
  ) {
    this.entry = new BasicBlock(this.uniq('entry'));
    fn.appendBlock(this.entry);
    this.b.setInsertPoint(this.entry);
    this.cur = this.entry;
    this.filling = this.entry;
    this.maxDepth = mg.recursionLimit;
    this.declValue = mg.declValue;
    this.declNumber = mg.declNumber;
    this.assigned = mg.assigned;
    if (mg.mode === 'alloca') {
      this.vars = new AllocaVars(this);
      this.values = new PlainValues(this.b);
    } else {
      // before the variables are made: it marks which locals need an SSA variable at all
      this.assignedIn = new AssignedVariables(decl.body!, this.assigned);
      this.vars = new BraunVars(this, mg.fold, this.assignedIn.statements);
      this.values = mg.fold ? new FoldingValues(this.b, mg.cseTable) : new PlainValues(this.b);
    }
    this.vars.seal(this.entry);
    if (mg.debug !== null) this.sp = mg.debug.subprogram(fn, decl.name, decl.pos);
    // the CSE table is shared with the previous function: forget its last block
    this.values.startBlock(this.entry);
  }

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

  // ---- VarHost -------------------------------------------------------------------------

  entryAlloca(type: Type, name: string): Instruction {
    const a = new Instruction(Opcode.Alloca, ptr, [ConstantInt.get(i32, 1)]);
    a.auxType = type;
    a.align = globalAlign(type);
    a.name = this.uniq(name);
    if (this.lastAlloca === null) this.entry.prepend(a);
    else a.insertAfter(this.lastAlloca);
    this.lastAlloca = a;
    return a;
  }

  typeOf(d: VarDecl): Type {
    return d.type.kind === 'pointer' ? ptr : scalarIRType(d.elem);
  }

  // ---- names -----------------------------------------------------------------------------

  /** A name unique in the function: `x`, `x.1`, … (`if.then`, `if.then1`, … for labels). */
  private uniq(base: string): string {
    const n = this.nameCount.get(base);
    if (n === undefined) {
      this.nameCount.set(base, 0);
      return base;
    }
    this.nameCount.set(base, n + 1);
    return base.includes('.') ? `${base}${n + 1}` : `${base}.${n + 1}`;
  }

  private block(label: string): BasicBlock {
    return new BasicBlock(this.uniq(label));
  }

  /** Phis made by the SSA builder carry their variable's name; make them unique. */
  private namePhis(): void {
    for (let bb = this.fn.firstBlock; bb !== null; bb = bb.next) {
      for (let i = bb.first; i !== null && i.op === Opcode.Phi; i = i.next) if (i.name !== '') i.name = this.uniq(i.name);
    }
  }

  // ---- blocks ------------------------------------------------------------------------------

  /**
   * Starts filling `bb` if some branch reaches it (else the code that would go there is
   * unreachable and skipped). `seal`: all of its predecessors exist (not so for a loop
   * header, whose back edges come later). A sealed block whose only predecessor reaches it
   * by an unconditional branch (a condition folded to a constant) is not made: its code
   * continues the predecessor, whose `br` is removed.
   */
  private enter(bb: BasicBlock, seal = true): void {
    const u = bb.firstUse;
    if (u === null) {
      this.cur = null;
      return;
    }
    if (seal && u.next === null) {
      const br = u.user as Instruction;
      const p = br.parent;
      if (br.op === Opcode.Br && br.ops.length === 1 && p !== null) {
        br.eraseFromParent();
        this.b.setInsertPoint(p);
        this.cur = p;
        if (p !== this.filling) {
          this.filling = p;
          this.values.startBlock(p);
        }
        return;
      }
    }
    this.fn.appendBlock(bb);
    if (seal) this.vars.seal(bb);
    this.b.setInsertPoint(bb);
    this.cur = bb;
    this.filling = bb;
    this.values.startBlock(bb);
  }

  private br(target: BasicBlock): void {
    if (this.cur === null) return;
    this.b.br(target);
    this.cur = null;
  }

  private condBr(c: Value, t: BasicBlock, f: BasicBlock): void {
    if (c instanceof ConstantInt) this.b.br(c.value !== 0n ? t : f);
    else this.b.condBr(c, t, f);
    this.cur = null;
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
  private exec(root: Task): void {
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
  private execDeep(root: Task): Value | null {
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
  private leaf(t: Task): Value | null {
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

  /** A scalar variable or an array parameter's pointer. */
  private readScalar(d: VarDecl): Value {
    if (d.storage === 'global') return this.b.load(scalarIRType(d.elem), this.mg.globals[d.id]!);
    return this.vars.read(d, this.cur!);
  }

  private constantOf(e: Expr): Constant {
    const v = e.constValue!;
    switch (e.type.kind) {
      case 'float': {
        // ConstantFP.get keys by bit pattern (a string); most programs use few distinct floats
        if (v === 0 && Object.is(v, -0)) return ConstantFP.get(floatType, v);
        let c = this.mg.floats.get(v);
        if (c === undefined) this.mg.floats.set(v, (c = ConstantFP.get(floatType, v)));
        return c;
      }
      case 'double':
        return ConstantFP.get(doubleType, v);
      default:
        return this.mg.int(v);
    }
  }

  /** The function's DISubprogram with `debugInfo`, else null. */
  private sp: MDNode | null = null;
  /** -g: each local's or parameter's DILocalVariable, by declaration id. */
  private readonly diVars = new Map<number, MDNode>();

  /**
   * -g: a DILocalVariable for `d` (parameter number `arg`, 0 for a local), declared as clang
   * declares it: `#dbg_declare` of its alloca (alloca mode, arrays), or `#dbg_value` of the
   * parameter's value (Braun mode), before the next instruction generated.
   */
  private describeVariable(d: VarDecl, arg: number, value: Value | null): void {
    const dbg = this.mg.debug!;
    const v = dbg.variable(this.sp!, d.name, d.pos, d.type, arg);
    if (v === null) return;
    this.diVars.set(d.id, v);
    const loc = dbg.location(this.sp!, d.pos);
    const slot = this.declValue[d.id];
    const r = slot !== null && slot !== undefined && slot.kind === ValueKind.Instruction && (slot as Instruction).op === Opcode.Alloca ? dbg.declare(slot, v, loc) : value !== null ? dbg.value(value, v, loc) : null;
    if (r !== null) (this.b.pendingRecords ??= []).push(r);
  }

  /** -g, Braun mode: `#dbg_value` of the value a local scalar now holds (an alloca's store says it otherwise). */
  private describeValue(d: VarDecl, value: Value): void {
    if (this.mg.mode === 'alloca') return;
    const v = this.diVars.get(d.id);
    if (v === undefined) return;
    const loc = this.b.debugLoc ?? this.mg.debug!.location(this.sp!, d.pos);
    (this.b.pendingRecords ??= []).push(this.mg.debug!.value(value, v, loc));
  }

  private visit(t: Task): Gen {
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

  private *genBlock(s: Block): Gen {
    const items = s.items;
    for (let i = 0; i < items.length; i++) {
      if (this.cur === null) break;
      yield items[i];
    }
    return null;
  }

  private *genDecl(s: DeclStmt): Gen {
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
  private *genLocalArray(d: VarDecl): Gen {
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

  private *genAssign(s: Assign): Gen {
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

  private *genExprStmt(e: Expr): Gen {
    // `a;` for an array names it and does nothing
    if (e.kind === 'LVal' && e.access === 'address') return null;
    yield e;
    return null;
  }

  private *genIf(s: If): Gen {
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
  private joined(bb: BasicBlock, start: BasicBlock | null, s: If | While): void {
    if (this.assignedIn !== null && start !== null && this.cur === bb) this.vars.join(bb, start, this.assignedIn.of(s));
  }

  private *genWhile(s: While): Gen {
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

  private *genJump(s: Stmt): Gen {
    if (s.kind === 'Break') this.br(this.loops[this.loops.length - 1].end);
    else if (s.kind === 'Continue') this.br(this.loops[this.loops.length - 1].cond);
    return null;
  }

  private *genReturn(s: Return): Gen {
    if (s.value === null) this.b.ret();
    else this.b.ret((yield s.value)!);
    this.cur = null;
    return null;
  }

  // ---- conditions --------------------------------------------------------------------------

  /** Branches on the truth of `e` (recursive while shallow). */
  private cond(e: Expr, t: BasicBlock, f: BasicBlock, depth: number): void {
    if (e.constValue !== undefined) {
      this.b.br(e.constValue !== 0 ? t : f);
      this.cur = null;
      return;
    }
    if (depth >= this.maxDepth) {
      this.execDeep(new CondTask(e, t, f));
      return;
    }
    switch (e.kind) {
      case 'Logical': {
        const and = e.op === '&&';
        const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
        if (and) this.cond(e.lhs, rhs, f, depth + 1);
        else this.cond(e.lhs, t, rhs, depth + 1);
        this.enter(rhs);
        if (this.cur !== null) this.cond(e.rhs, t, f, depth + 1);
        return;
      }
      case 'Unary':
        if (e.op === '!') {
          this.cond(e.operand, f, t, depth + 1);
          return;
        }
        break;
      case 'Binary':
        if (isComparison(e.op)) {
          const a = this.value(e.lhs, depth + 1);
          const b = this.value(e.rhs, depth + 1);
          this.condBr(this.compare(e.op, a, b), t, f);
          return;
        }
        break;
      default:
        break;
    }
    this.condBr(this.truth(this.value(e, depth + 1)), t, f);
  }

  private *genCond(c: CondTask): Gen {
    const { e, t, f } = c;
    if (e.constValue !== undefined) {
      this.b.br(e.constValue !== 0 ? t : f);
      this.cur = null;
      return null;
    }
    switch (e.kind) {
      case 'Logical': {
        const and = e.op === '&&';
        const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
        yield and ? new CondTask(e.lhs, rhs, f) : new CondTask(e.lhs, t, rhs);
        this.enter(rhs);
        if (this.cur !== null) yield new CondTask(e.rhs, t, f);
        return null;
      }
      case 'Unary':
        if (e.op === '!') {
          yield new CondTask(e.operand, f, t);
          return null;
        }
        break;
      case 'Binary':
        if (isComparison(e.op)) {
          const a = (yield e.lhs)!;
          const b = (yield e.rhs)!;
          this.condBr(this.compare(e.op, a, b), t, f);
          return null;
        }
        break;
      default:
        break;
    }
    const v = (yield e)!;
    this.condBr(this.truth(v), t, f);
    return null;
  }

  /** The truth of `e` as an i1 (a comparison directly, else `!= 0`). */
  private truthValue(e: Expr, depth: number): Value {
    if (e.constValue !== undefined) return e.constValue !== 0 ? TRUE : FALSE;
    if (depth >= this.maxDepth) return this.execDeep(new TruthTask(e))!;
    if (e.kind === 'Binary' && isComparison(e.op)) {
      const a = this.value(e.lhs, depth + 1);
      const b = this.value(e.rhs, depth + 1);
      return this.compare(e.op, a, b);
    }
    return this.truth(this.value(e, depth + 1));
  }

  private *genTruth(t: TruthTask): Gen {
    const e = t.e;
    if (e.constValue !== undefined) return e.constValue !== 0 ? TRUE : FALSE;
    if (e.kind === 'Binary' && isComparison(e.op)) {
      const a = (yield e.lhs)!;
      const b = (yield e.rhs)!;
      return this.compare(e.op, a, b);
    }
    return this.truth((yield e)!);
  }

  /** `v != 0` as an i1. */
  private truth(v: Value): Value {
    return v.type === floatType ? this.values.fcmp(Pred.FCMP_UNE, v, ZERO_F) : this.values.icmp(Pred.NE, v, ZERO_I);
  }

  private compare(op: string, a: Value, b: Value): Value {
    if (a.type === floatType) {
      const p = op === '<' ? Pred.FCMP_OLT : op === '>' ? Pred.FCMP_OGT : op === '<=' ? Pred.FCMP_OLE : op === '>=' ? Pred.FCMP_OGE : op === '==' ? Pred.FCMP_OEQ : Pred.FCMP_UNE;
      return this.values.fcmp(p, a, b);
    }
    const p = op === '<' ? Pred.SLT : op === '>' ? Pred.SGT : op === '<=' ? Pred.SLE : op === '>=' ? Pred.SGE : op === '==' ? Pred.EQ : Pred.NE;
    return this.values.icmp(p, a, b);
  }

  // ---- expressions -------------------------------------------------------------------------
  //
  // Each kind has a combining step shared by the recursive and the generator walk
  // (`lvalOf`, `callOf`, `unaryOf`, `binaryOf`, `convertOf`, `logicalEnd`).

  /** The value of `e` (recursive while shallow). */
  private value(e: Expr, depth: number): Value {
    if (e.constValue !== undefined) return this.constantOf(e);
    if (depth >= this.maxDepth) return this.execDeep(e)!;
    const d1 = depth + 1;
    switch (e.kind) {
      case 'LVal': {
        const ix = e.indices;
        if (ix.length === 0) return e.access === 'address' ? this.lvalOf(e, EMPTY) : this.readScalar(e.decl!);
        const vals = new Array<Value>(ix.length);
        for (let k = 0; k < ix.length; k++) vals[k] = this.value(ix[k], d1);
        return this.lvalOf(e, vals);
      }
      case 'Call': {
        const args: Value[] = [];
        for (const a of e.args) args.push(a.kind === 'StringLiteral' ? this.mg.stringConstant(a.value) : this.value(a, d1));
        return this.callOf(e, args);
      }
      case 'Unary':
        return this.unaryOf(e.op, this.value(e.operand, d1));
      case 'Binary': {
        const a = this.value(e.lhs, d1);
        return this.binaryOf(e.op, a, this.value(e.rhs, d1));
      }
      case 'Logical': {
        const and = e.op === '&&';
        const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
        const end = this.block(and ? 'land.end' : 'lor.end');
        if (and) this.cond(e.lhs, rhs, end, d1);
        else this.cond(e.lhs, end, rhs, d1);
        this.enter(rhs);
        let rv: Value = FALSE;
        let rhsEnd: BasicBlock | null = null;
        if (this.cur !== null) {
          rv = this.truthValue(e.rhs, d1);
          rhsEnd = this.cur;
          this.br(end);
        }
        return this.logicalEnd(and, end, rhsEnd, rv);
      }
      case 'Convert':
        return this.convertOf(e.op, this.value(e.operand, d1));
      case 'IntLiteral':
        return ConstantInt.get(i32, e.value);
      case 'FloatLiteral':
        return ConstantFP.get(floatType, e.value);
      default:
        throw new Error(`internal error: cannot generate code for '${e.kind}'`);
    }
  }

  private *genConstant(e: Task): Gen {
    if (e.kind === 'IntLiteral') return ConstantInt.get(i32, e.value);
    if (e.kind === 'FloatLiteral') return ConstantFP.get(floatType, e.value);
    throw new Error(`internal error: cannot generate code for '${e.kind}'`);
  }

  private *genLVal(e: LVal): Gen {
    const ix = e.indices;
    if (ix.length === 0 && e.access !== 'address') return this.readScalar(e.decl!);
    const vals = new Array<Value>(ix.length);
    for (let k = 0; k < ix.length; k++) vals[k] = (yield ix[k])!;
    return this.lvalOf(e, vals);
  }

  /** An element's value, or (access 'address') the address of an element or sub-array. */
  private lvalOf(e: LVal, indices: Value[]): Value {
    const d = e.decl!;
    const p = this.addressOf(d, indices);
    return e.access === 'address' ? p : this.b.load(scalarIRType(d.elem), p);
  }

  /** One GEP over the declared array type (or an array parameter's pointee type). */
  private addressOf(d: VarDecl, indices: Value[]): Value {
    const t = d.type;
    let base: Value;
    let src: Type;
    let idx: Value[];
    let k = 0;
    if (t.kind === 'pointer') {
      base = this.vars.read(d, this.cur!);
      if (indices.length === 0) return base;
      src = this.mg.pointeeType(d);
      idx = new Array<Value>(indices.length);
    } else if (t.kind === 'array') {
      base = d.storage === 'global' ? this.mg.globals[d.id]! : this.declValue[d.id]!;
      if (indices.length === 0) return base;
      src = this.mg.pointeeType(d);
      idx = new Array<Value>(indices.length + 1);
      idx[k++] = c64(0);
    } else {
      throw new Error(`internal error: '${d.name}' is not an array`);
    }
    for (let j = 0; j < indices.length; j++) {
      const v = indices[j];
      idx[k++] = v instanceof ConstantInt ? c64(Number(v.value)) : this.values.cast(Opcode.SExt, v, i64);
    }
    return this.values.gep(src, base, idx);
  }

  private *genCall(e: Call): Gen {
    const args: Value[] = [];
    for (const a of e.args) args.push(a.kind === 'StringLiteral' ? this.mg.stringConstant(a.value) : (yield a)!);
    return this.callOf(e, args);
  }

  private callOf(e: Call, args: Value[]): Value {
    const callee = e.callee!;
    if (callee.lineArgument) args.push(ConstantInt.get(i32, e.line));
    return this.b.call(this.mg.functionFor(callee), args);
  }

  private *genUnary(e: Extract<Expr, { kind: 'Unary' }>): Gen {
    return this.unaryOf(e.op, (yield e.operand)!);
  }

  private unaryOf(op: string, v: Value): Value {
    const isFloat = v.type === floatType;
    switch (op) {
      case '+':
        return v;
      case '-':
        return isFloat ? this.values.fneg(v) : this.values.binary(Opcode.Sub, ZERO_I, v);
      default: {
        const c = isFloat ? this.values.fcmp(Pred.FCMP_OEQ, v, ZERO_F) : this.values.icmp(Pred.EQ, v, ZERO_I);
        return this.values.cast(Opcode.ZExt, c, i32);
      }
    }
  }

  private *genBinary(e: Extract<Expr, { kind: 'Binary' }>): Gen {
    const a = (yield e.lhs)!;
    return this.binaryOf(e.op, a, (yield e.rhs)!);
  }

  private binaryOf(op: string, a: Value, b: Value): Value {
    if (isComparison(op)) return this.values.cast(Opcode.ZExt, this.compare(op, a, b), i32);
    const isFloat = a.type === floatType;
    switch (op) {
      case '+':
        return this.values.binary(isFloat ? Opcode.FAdd : Opcode.Add, a, b);
      case '-':
        return this.values.binary(isFloat ? Opcode.FSub : Opcode.Sub, a, b);
      case '*':
        return this.values.binary(isFloat ? Opcode.FMul : Opcode.Mul, a, b);
      case '/':
        return this.values.binary(isFloat ? Opcode.FDiv : Opcode.SDiv, a, b);
      default:
        return this.values.binary(Opcode.SRem, a, b);
    }
  }

  /** `a && b` / `a || b` as a value: short-circuit branches, an i1 phi, `zext` to int. */
  private *genLogical(e: Logical): Gen {
    const and = e.op === '&&';
    const rhs = this.block(and ? 'land.rhs' : 'lor.rhs');
    const end = this.block(and ? 'land.end' : 'lor.end');
    yield and ? new CondTask(e.lhs, rhs, end) : new CondTask(e.lhs, end, rhs);
    this.enter(rhs);
    let rhsEnd: BasicBlock | null = null;
    let rv: Value = FALSE;
    if (this.cur !== null) {
      rv = (yield new TruthTask(e.rhs))!;
      rhsEnd = this.cur;
      this.br(end);
    }
    return this.logicalEnd(and, end, rhsEnd, rv);
  }

  /**
   * Enters the join of a `&&`/`||` value: every edge into `end` but the one from `rhsEnd`
   * (which carries `rv`) is a short circuit and carries false (&&) or true (||).
   */
  private logicalEnd(and: boolean, end: BasicBlock, rhsEnd: BasicBlock | null, rv: Value): Value {
    const preds = end.predecessors();
    this.enter(end);
    const short = and ? FALSE : TRUE;
    let v: Value;
    if (preds.length === 1) {
      v = preds[0] === rhsEnd ? rv : short;
    } else {
      const phi = this.b.phi(i1);
      for (const p of preds) phi.addIncoming(p === rhsEnd ? rv : short, p);
      v = phi;
    }
    return this.values.cast(Opcode.ZExt, v, i32);
  }

  private *genConvert(e: Extract<Expr, { kind: 'Convert' }>): Gen {
    return this.convertOf(e.op, (yield e.operand)!);
  }

  private convertOf(op: string, v: Value): Value {
    switch (op) {
      case 'itof':
        return this.values.cast(Opcode.SIToFP, v, floatType);
      case 'ftoi':
        return this.values.cast(Opcode.FPToSI, v, i32);
      case 'fpext':
        return this.values.cast(Opcode.FPExt, v, doubleType);
      default:
        // decay: the operand (an LVal with access 'address') is already the address
        return v;
    }
  }
}

function isComparison(op: string): boolean {
  return op === '<' || op === '>' || op === '<=' || op === '>=' || op === '==' || op === '!=';
}
