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
 *
 * The function generator is in irgen-function.ts, irgen-expressions.ts and irgen-statements.ts.
 */
import { SysYDebugInfo } from './debug-info.js';

import { Constant, ConstantFP, ConstantInt, ConstantString } from '../../ir/constants.js';
import { Function, GlobalVariable } from '../../ir/function.js';
import { Module } from '../../ir/module.js';
import { Type, doubleType, floatType, functionType, i1, i32, i64, i8, ptr, voidType } from '../../ir/types.js';
import type { Value } from '../../ir/value.js';
import type { ArrayType, PointerType, FuncDecl, Program, Type as SyType, VarDecl } from './ast.js';
import { ExprTable } from './irgen-values.js';
import { arrayConstant, arrayIRType, scalarConstant, scalarIRType } from './lower-init.js';
import { MAX_RECURSION, globalAlign } from './irgen-function.js';
import { FunctionGen } from './irgen-statements.js';


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

export class ModuleGen {
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
