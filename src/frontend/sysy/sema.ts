/**
 * Semantic analysis of SysY: name resolution, typing, implicit conversions,
 * constant folding, initializer flattening, and the checks that turn a parse
 * tree into the annotated tree documented in ast.ts.
 *
 * Scopes use the classic "shadow stack" symbol table (Aho, Lam, Sethi &
 * Ullman §2.7; also LLVM's/clang's IdentifierInfo chains): one map from a
 * name to its innermost binding, each binding linking to the one it shadows,
 * and per scope the list of names to unbind on exit. Lookup is O(1) at any
 * depth.
 *
 * Both walks are iterative (explicit stacks): statements with enter/exit
 * tasks, expressions in post-order (children typed before their parent, which
 * then inserts conversions into its own child fields). Errors do not stop the
 * walk; an ill-typed expression gets type `error`, which every later check
 * accepts silently so that one mistake yields one message.
 */

import {
  type Block, type DeclStmt, type ElemKind, type Expr, type FuncDecl,
  type InitEntry, type InitList, type Program, type ScalarType, type Stmt,
  type Type, type VarDecl, type While,
  FLOAT, INT, STRING, VOID,
  arrayType, exprStart, pointerType, sameType, scalarOf, typeToString,
} from './ast.js';
import type { DiagnosticBag } from './diagnostics.js';
import { flattenInitializer } from './initializer.js';
import { ExprChecker } from './sema-expr.js';

/** The runtime library (sylib) with the contest's signatures. */
const RUNTIME: readonly [name: string, ret: 'int' | 'float' | 'void', params: readonly string[]][] = [
  ['getint', 'int', []],
  ['getch', 'int', []],
  ['getfloat', 'float', []],
  ['getarray', 'int', ['int[]']],
  ['getfarray', 'int', ['float[]']],
  ['putint', 'void', ['int']],
  ['putch', 'void', ['int']],
  ['putfloat', 'void', ['float']],
  ['putarray', 'void', ['int', 'int[]']],
  ['putfarray', 'void', ['int', 'float[]']],
  ['putf', 'void', ['string']],
  ['starttime', 'void', []],
  ['stoptime', 'void', []],
];

// Statement-walk tasks.
const T_STMT = 0;
const T_CLOSE_SCOPE = 1;
const T_END_LOOP = 2;

export class Analyzer extends ExprChecker {
  private nextId: number;
  private func: FuncDecl | null = null;
  private readonly loops: While[] = [];


  constructor(program: Program, diag: DiagnosticBag) {
    super(program, diag);
    this.nextId = program.declCount;
  }

  // ------------------------------------------------------------ program

  run(): void {
    const p = this.program;
    this.openScope();
    for (const [name, ret, params] of RUNTIME) {
      const f = this.makeRuntime(name, ret, params);
      p.runtime.push(f);
      this.declare(f);
    }
    for (const item of p.items) {
      if (item.kind === 'DeclStmt') {
        for (const d of item.decls) {
          this.checkVarDecl(d);
          p.globals.push(d);
        }
      } else {
        this.checkFunction(item);
      }
    }
    const main = this.lookup('main');
    if (!main || main.kind !== 'FuncDecl' || main.isRuntime || main.definition === null) {
      this.error(p.source.text.length, "program has no 'main' function");
    }
    for (const f of p.items) {
      if (f.kind === 'FuncDecl' && f.body === null && f.used && f.definition === null) {
        this.error(f.pos, `function '${f.name}' is used but never defined`);
      }
    }
    this.closeScope();
    p.declCount = this.nextId;
  }

  private makeRuntime(name: string, ret: 'int' | 'float' | 'void', paramSpecs: readonly string[]): FuncDecl {
    const params: VarDecl[] = paramSpecs.map((spec, i) => {
      const elem: ElemKind = spec.startsWith('float') ? 'float' : 'int';
      const type: Type = spec === 'string' ? STRING : spec.endsWith('[]') ? pointerType(elem, []) : scalarOf(elem);
      return {
        kind: 'VarDecl', id: this.nextId++, pos: 0, name: `p${i}`, storage: 'param', isConst: false, elem,
        dimExprs: [], init: null, type, initializer: null, constValue: undefined,
      } satisfies VarDecl;
    });
    const timer = name === 'starttime' || name === 'stoptime';
    return {
      kind: 'FuncDecl', id: this.nextId++, pos: 0, name,
      returnType: ret === 'int' ? INT : ret === 'float' ? FLOAT : VOID,
      params, body: null, isRuntime: true, linkName: timer ? `_sysy_${name}` : name,
      lineArgument: timer, isVariadic: name === 'putf', definition: null, used: false,
    };
  }

  // ------------------------------------------------------------ declarations

  /** Folds dimension expressions; returns null (after reporting) if any is bad. */
  private checkDims(exprs: readonly (Expr | null)[], name: string): number[] | null {
    const dims: number[] = [];
    let ok = true;
    for (const e of exprs) {
      if (e === null) continue;
      this.checkExpr(e);
      if (e.type.kind === 'error') {
        ok = false;
        continue;
      }
      if (e.type.kind === 'float') {
        this.error(exprStart(e), `size of array '${name}' has non-integer type 'float'`);
        ok = false;
        continue;
      }
      if (!this.requireScalar(e)) {
        ok = false;
        continue;
      }
      if (e.constValue === undefined) {
        this.reportNotConstant(e, `size of array '${name}' is not a constant expression`);
        ok = false;
        continue;
      }
      if (e.constValue <= 0) {
        this.error(exprStart(e), `size of array '${name}' must be positive, but is ${e.constValue}`);
        ok = false;
        continue;
      }
      dims.push(e.constValue);
    }
    return ok ? dims : null;
  }

  private checkVarDecl(d: VarDecl): void {
    const dims = this.checkDims(d.dimExprs, d.name);
    if (dims !== null) d.type = dims.length === 0 ? scalarOf(d.elem) : arrayType(d.elem, dims);
    this.declare(d);
    if (d.init === null) {
      if (d.isConst) this.error(d.pos, `const variable '${d.name}' must be initialized`);
      return;
    }
    if (dims === null) {
      this.checkInitExprsOnly(d.init);
      return;
    }
    const needConst = d.isConst || d.storage === 'global';
    const what = d.isConst ? `initializer of const variable '${d.name}' is not a constant expression`
      : 'initializer element is not a compile-time constant';
    const target = scalarOf(d.elem);
    if (dims.length === 0) {
      let e: Expr;
      if (d.init.kind === 'InitList') {
        // C allows braces around a scalar initializer: `int x = {1};`.
        const items = d.init.items;
        if (items.length === 0) {
          this.error(d.init.pos, 'scalar initializer cannot be empty');
          return;
        }
        if (items[0].kind === 'InitList') {
          this.error(items[0].pos, 'too many braces around scalar initializer');
          this.checkInitExprsOnly(d.init);
          return;
        }
        if (items.length > 1) this.error(items[1].pos, 'excess elements in scalar initializer');
        e = items[0];
      } else {
        e = d.init;
      }
      const v = this.checkInitElement(e, target, needConst, what);
      if (v === null) return;
      d.initializer = { kind: 'scalar', expr: v };
      if (d.isConst) d.constValue = v.constValue;
      return;
    }
    if (d.init.kind !== 'InitList') {
      this.checkExpr(d.init);
      this.error(exprStart(d.init), `array initializer must be an initializer list`);
      return;
    }
    const entries: InitEntry[] = [];
    let size = 1;
    for (const x of dims) size *= x;
    flattenInitializer(d.init, dims, {
      element: (expr: Expr, index: number) => {
        const v = this.checkInitElement(expr, target, needConst, what);
        if (v !== null) entries.push({ index, expr: v });
      },
      error: (pos: number, message: string) => this.error(pos, message),
    });
    d.initializer = { kind: 'array', entries, size };
  }

  /** Types the expressions of a rejected initializer, so their own errors still show. */
  private checkInitExprsOnly(init: Expr | InitList): void {
    const stack: (Expr | InitList)[] = [init];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x.kind === 'InitList') for (let i = x.items.length - 1; i >= 0; i--) stack.push(x.items[i]);
      else this.checkExpr(x);
    }
  }

  private checkInitElement(e: Expr, target: ScalarType, needConst: boolean, what: string): Expr | null {
    this.checkExpr(e);
    if (!this.requireScalar(e)) return null;
    const v = this.coerce(e, target);
    if (needConst && v.constValue === undefined) {
      this.reportNotConstant(e, what);
      return null;
    }
    return v;
  }

  /** Explains why a required constant is missing: a division by zero, or `message`. */
  private reportNotConstant(e: Expr, message: string): void {
    const stack: Expr[] = [e];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x.kind === 'Binary' && (x.op === '/' || x.op === '%') && x.type.kind === 'int' &&
        x.lhs.constValue !== undefined && x.rhs.constValue === 0) {
        this.error(x.pos, 'division by zero in constant expression');
        return;
      }
      switch (x.kind) {
        case 'Binary': case 'Logical': stack.push(x.rhs, x.lhs); break;
        case 'Unary': case 'Convert': stack.push(x.operand); break;
        default: break;
      }
    }
    this.error(exprStart(e), message);
  }

  private paramType(p: VarDecl): Type | null {
    if (p.dimExprs.length === 0) return scalarOf(p.elem);
    const dims = this.checkDims(p.dimExprs.slice(1), p.name);
    if (p.dimExprs[0] !== null) this.checkDims([p.dimExprs[0]], p.name); // C checks, then ignores, the first size
    return dims === null ? null : pointerType(p.elem, dims);
  }

  private checkFunction(f: FuncDecl): void {
    let paramsOk = true;
    for (const p of f.params) {
      const t = this.paramType(p);
      if (t === null) paramsOk = false;
      else p.type = t;
    }
    if (f.name === 'main' && (f.returnType.kind !== 'int' || f.params.length !== 0)) {
      this.error(f.pos, "'main' must be declared as 'int main()'");
    }
    // A function may be declared (prototype) several times and defined once.
    const prev = this.bindings.get(f.name);
    let first: FuncDecl | null = null;
    if (prev && prev.depth === 0 && prev.decl.kind === 'FuncDecl' && !prev.decl.isRuntime) {
      first = prev.decl;
      if (paramsOk && !this.sameSignature(first, f)) {
        this.error(f.pos, `conflicting types for '${f.name}'`);
        this.note(first.pos, 'previous declaration is here');
      } else if (f.body !== null && first.definition !== null) {
        this.error(f.pos, `redefinition of '${f.name}'`);
        this.note(first.definition.pos, 'previous definition is here');
      }
      if (f.body !== null && first.definition === null) first.definition = f;
    } else {
      this.declare(f);
    }
    if (f.body !== null) {
      f.definition = f;
      this.program.functions.push(f);
    }
    if (f.body === null) return;
    // Parameters and the outermost block of the body share one scope (C 6.2.1).
    this.openScope();
    for (const p of f.params) this.declare(p);
    this.func = f;
    this.checkBody(f.body);
    this.func = null;
    this.closeScope();
  }

  private sameSignature(a: FuncDecl, b: FuncDecl): boolean {
    if (a.returnType.kind !== b.returnType.kind || a.params.length !== b.params.length) return false;
    for (let i = 0; i < a.params.length; i++) if (!sameType(a.params[i].type, b.params[i].type)) return false;
    return true;
  }

  // ------------------------------------------------------------ statements

  private checkBody(body: Block): void {
    const tasks: (Stmt | DeclStmt | null)[] = [];
    const kinds: number[] = [];
    // The body's own block does not open a scope: it shares the parameters'.
    for (let i = body.items.length - 1; i >= 0; i--) {
      tasks.push(body.items[i]);
      kinds.push(T_STMT);
    }
    while (tasks.length > 0) {
      const s = tasks.pop()!;
      const kind = kinds.pop()!;
      if (kind === T_CLOSE_SCOPE) {
        this.closeScope();
        continue;
      }
      if (kind === T_END_LOOP) {
        this.loops.pop();
        continue;
      }
      switch (s!.kind) {
        case 'DeclStmt':
          for (const d of s.decls) this.checkVarDecl(d);
          break;
        case 'Block':
          this.openScope();
          tasks.push(null);
          kinds.push(T_CLOSE_SCOPE);
          for (let i = s.items.length - 1; i >= 0; i--) {
            tasks.push(s.items[i]);
            kinds.push(T_STMT);
          }
          break;
        case 'If':
          s.cond = this.checkCondition(s.cond);
          if (s.else) {
            tasks.push(s.else);
            kinds.push(T_STMT);
          }
          tasks.push(s.then);
          kinds.push(T_STMT);
          break;
        case 'While':
          s.cond = this.checkCondition(s.cond);
          this.loops.push(s);
          tasks.push(null);
          kinds.push(T_END_LOOP);
          tasks.push(s.body);
          kinds.push(T_STMT);
          break;
        case 'Break':
        case 'Continue':
          if (this.loops.length === 0) {
            this.error(s.pos, `'${s.kind === 'Break' ? 'break' : 'continue'}' statement not in loop statement`);
          } else {
            s.loop = this.loops[this.loops.length - 1];
          }
          break;
        case 'Return':
          this.checkReturn(s);
          break;
        case 'Assign':
          this.checkAssign(s);
          break;
        case 'ExprStmt':
          this.checkExpr(s.expr);
          if (s.expr.type.kind === 'string') this.error(s.expr.pos, 'a string literal is only allowed as the format argument of putf');
          // `a;` for an array `a` does nothing; it is not a load of the array.
          if (s.expr.kind === 'LVal' && s.expr.type.kind === 'array') s.expr.access = 'address';
          break;
        case 'Empty':
          break;
      }
    }
  }

  private checkCondition(e: Expr): Expr {
    this.checkExpr(e);
    this.requireScalar(e);
    return e;
  }

  private checkReturn(s: Extract<Stmt, { kind: 'Return' }>): void {
    const f = this.func!;
    s.func = f;
    if (s.value === null) {
      if (f.returnType.kind !== 'void') this.error(s.pos, `non-void function '${f.name}' should return a value`);
      return;
    }
    this.checkExpr(s.value);
    if (f.returnType.kind === 'void') {
      this.error(exprStart(s.value), `void function '${f.name}' should not return a value`);
      return;
    }
    if (this.requireScalar(s.value)) s.value = this.coerce(s.value, f.returnType);
  }

  private checkAssign(s: Extract<Stmt, { kind: 'Assign' }>): void {
    const t = s.target;
    this.checkExpr(t);
    t.access = 'store';
    this.checkExpr(s.value);
    if (t.type.kind === 'error') return;
    const d = t.decl!;
    if (t.type.kind === 'array' || t.type.kind === 'pointer') {
      this.error(t.pos, `array type '${typeToString(t.type)}' is not assignable`);
      return;
    }
    if (d.isConst) {
      this.error(t.pos, `cannot assign to const variable '${d.name}'`);
      return;
    }
    if (this.requireScalar(s.value)) s.value = this.coerce(s.value, t.type as ScalarType);
  }
}

/** Annotates `program` in place; reports into `diag`. */
export function analyzeProgram(program: Program, diag: DiagnosticBag): void {
  new Analyzer(program, diag).run();
}

