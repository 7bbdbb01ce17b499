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
  type Binary, type Block, type Call, type Decl, type DeclStmt, type ElemKind, type Expr, type FuncDecl,
  type InitEntry, type InitList, type LVal, type Logical, type Program, type ScalarType, type Stmt,
  type Type, type Unary, type VarDecl, type While, type Convert, type ConvertOp,
  DOUBLE, ERROR, FLOAT, INT, STRING, VOID,
  arrayType, exprStart, pointerType, sameType, scalarOf, typeToString,
} from './ast.js';
import { DiagnosticBag } from './diagnostics.js';
import {
  floatToInt, foldCompare, foldFloatArith, foldIntArith, foldNeg, foldNot, intToFloat,
} from './const-eval.js';
import { flattenInitializer } from './initializer.js';

interface Binding {
  decl: Decl;
  depth: number;
  prev: Binding | undefined;
}

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

export class Analyzer {
  private readonly diag: DiagnosticBag;
  private readonly program: Program;
  private readonly bindings = new Map<string, Binding>();
  private readonly scopes: string[][] = [];
  private nextId: number;
  private func: FuncDecl | null = null;
  private readonly loops: While[] = [];

  // Reused post-order stacks for expressions.
  private readonly exprStack: Expr[] = [];
  private readonly exprExit: boolean[] = [];

  constructor(program: Program, diag: DiagnosticBag) {
    this.program = program;
    this.diag = diag;
    this.nextId = program.declCount;
  }

  private error(pos: number, message: string): void {
    this.diag.error(this.program.source.loc(pos), message);
  }

  private note(pos: number, message: string): void {
    this.diag.note(this.program.source.loc(pos), message);
  }

  // ------------------------------------------------------------ scopes

  private openScope(): void {
    this.scopes.push([]);
  }

  private closeScope(): void {
    const names = this.scopes.pop()!;
    for (const name of names) {
      const b = this.bindings.get(name)!;
      if (b.prev) this.bindings.set(name, b.prev);
      else this.bindings.delete(name);
    }
  }

  private get depth(): number {
    return this.scopes.length - 1;
  }

  private lookup(name: string): Decl | undefined {
    return this.bindings.get(name)?.decl;
  }

  /** Binds `decl` in the current scope; reports a redefinition instead if the name is taken there. */
  private declare(decl: Decl): boolean {
    const prev = this.bindings.get(decl.name);
    if (prev && prev.depth === this.depth) {
      const old = prev.decl;
      if (old.kind === 'FuncDecl' && old.isRuntime) {
        this.error(decl.pos, `redefinition of '${decl.name}', a function of the SysY runtime library`);
      } else if (old.kind !== decl.kind) {
        this.error(decl.pos, `redefinition of '${decl.name}' as a different kind of symbol`);
        this.note(old.pos, 'previous definition is here');
      } else {
        this.error(decl.pos, `redefinition of '${decl.name}'`);
        this.note(old.pos, 'previous definition is here');
      }
      return false;
    }
    this.bindings.set(decl.name, { decl, depth: this.depth, prev });
    this.scopes[this.scopes.length - 1].push(decl.name);
    return true;
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

  // ------------------------------------------------------------ expressions

  /** Reports (once) and returns false unless `e` is an int or float value. */
  private requireScalar(e: Expr): boolean {
    const t = e.type;
    switch (t.kind) {
      case 'int':
      case 'float':
        return true;
      case 'error':
        return false;
      case 'void':
        this.error(exprStart(e), `void value${e.kind === 'Call' ? ` of '${e.name}()'` : ''} cannot be used in an expression`);
        break;
      case 'string':
        this.error(e.pos, 'a string literal is only allowed as the format argument of putf');
        break;
      default:
        if (e.kind === 'LVal') this.error(e.pos, `array '${e.name}' of type '${typeToString(t)}' cannot be used as a scalar value`);
        // Only LVals have array types today; this keeps the message sensible if that changes.
        else this.error(exprStart(e), `array of type '${typeToString(t)}' cannot be used as a scalar value`);
        break;
    }
    e.type = ERROR;
    return false;
  }

  private convert(op: ConvertOp, operand: Expr, type: Type, constValue: number | undefined): Convert {
    return { kind: 'Convert', pos: operand.pos, type, constValue, op, operand };
  }

  /** `e` (a scalar) as a value of scalar type `t`. */
  private coerce(e: Expr, t: ScalarType): Expr {
    if (e.type.kind === t.kind) return e;
    const c = e.constValue;
    if (t.kind === 'float') return this.convert('itof', e, FLOAT, c === undefined ? undefined : intToFloat(c));
    return this.convert('ftoi', e, INT, c === undefined ? undefined : floatToInt(c));
  }

  /** Types `root` and everything below it, in post-order, without recursion. */
  checkExpr(root: Expr): void {
    const stack = this.exprStack;
    const exit = this.exprExit;
    const base = stack.length;
    stack.push(root);
    exit.push(false);
    while (stack.length > base) {
      const e = stack.pop()!;
      if (!exit.pop()) {
        stack.push(e);
        exit.push(true);
        switch (e.kind) {
          case 'Unary':
            stack.push(e.operand);
            exit.push(false);
            break;
          case 'Binary':
          case 'Logical':
            stack.push(e.rhs, e.lhs);
            exit.push(false, false);
            break;
          case 'LVal':
            for (let i = e.indices.length - 1; i >= 0; i--) {
              stack.push(e.indices[i]);
              exit.push(false);
            }
            break;
          case 'Call':
            for (let i = e.args.length - 1; i >= 0; i--) {
              stack.push(e.args[i]);
              exit.push(false);
            }
            break;
          default:
            break;
        }
        continue;
      }
      switch (e.kind) {
        case 'IntLiteral':
          if (e.value > 2147483647) {
            this.error(e.pos, `integer literal is too large to be represented in type 'int'`);
            e.type = ERROR;
          } else {
            e.type = INT;
            e.constValue = e.value;
          }
          break;
        case 'FloatLiteral':
          e.type = FLOAT;
          e.constValue = e.value;
          break;
        case 'StringLiteral':
          e.type = STRING;
          break;
        case 'LVal':
          this.exitLVal(e);
          break;
        case 'Call':
          this.exitCall(e);
          break;
        case 'Unary':
          this.exitUnary(e);
          break;
        case 'Binary':
          this.exitBinary(e);
          break;
        case 'Logical':
          this.exitLogical(e);
          break;
        case 'Convert':
          break;
      }
    }
  }

  private exitLVal(e: LVal): void {
    let indicesOk = true;
    for (const ix of e.indices) {
      if (ix.type.kind === 'float') {
        this.error(exprStart(ix), 'array subscript is not an integer');
        indicesOk = false;
      } else if (!this.requireScalar(ix)) {
        indicesOk = false;
      }
    }
    const d = this.lookup(e.name);
    if (d === undefined) {
      this.error(e.pos, `use of undeclared identifier '${e.name}'`);
      return;
    }
    if (d.kind === 'FuncDecl') {
      this.error(e.pos, `'${e.name}' is a function, not a variable`);
      return;
    }
    e.decl = d;
    if (d.type.kind === 'error' || !indicesOk) return;
    const k = e.indices.length;
    const t = d.type;
    let elem: ElemKind;
    let dims: readonly number[];
    if (t.kind === 'array') {
      elem = t.elem;
      dims = t.dims;
    } else if (t.kind === 'pointer') {
      elem = t.elem;
      if (k === 0) {
        e.type = t;
        return;
      }
      dims = t.dims;
      // The pointer's own index is the first one: a[i] of `int a[][4]` has type int[4].
      if (k - 1 > dims.length) {
        this.error(e.indices[dims.length + 1].pos, 'subscripted value is not an array');
        return;
      }
      e.type = k - 1 === dims.length ? scalarOf(elem) : arrayType(elem, dims.slice(k - 1));
      return;
    } else {
      if (k > 0) {
        this.error(exprStart(e.indices[0]), `subscripted value is not an array ('${e.name}' has type '${typeToString(t)}')`);
        return;
      }
      e.type = t;
      e.constValue = d.constValue;
      return;
    }
    if (k > dims.length) {
      this.error(exprStart(e.indices[dims.length]), `subscripted value is not an array ('${e.name}' has ${dims.length} dimension${dims.length > 1 ? 's' : ''})`);
      return;
    }
    if (k < dims.length) {
      e.type = arrayType(elem, dims.slice(k));
      return;
    }
    e.type = scalarOf(elem);
    // An element of a const array at constant indices is a constant (SysY's ConstExp allows it).
    if (d.isConst && d.initializer !== null && d.initializer.kind === 'array') {
      let flat = 0;
      for (let i = 0; i < k; i++) {
        const v = e.indices[i].constValue;
        if (v === undefined || v < 0 || v >= dims[i]) return;
        flat = flat * dims[i] + v;
      }
      const entries = d.initializer.entries;
      let lo = 0;
      let hi = entries.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const idx = entries[mid].index;
        if (idx === flat) {
          e.constValue = entries[mid].expr.constValue;
          return;
        }
        if (idx < flat) lo = mid + 1;
        else hi = mid - 1;
      }
      e.constValue = 0;
    }
  }

  private exitCall(e: Call): void {
    const d = this.lookup(e.name);
    if (d === undefined) {
      this.error(e.pos, `call to undeclared function '${e.name}'`);
      return;
    }
    if (d.kind !== 'FuncDecl') {
      this.error(e.pos, `called object '${e.name}' is not a function (it has type '${typeToString(d.type)}')`);
      return;
    }
    e.callee = d;
    d.used = true;
    e.type = d.returnType;
    const params = d.params;
    const n = e.args.length;
    if (n < params.length || (n > params.length && !d.isVariadic)) {
      this.error(e.pos, `too ${n < params.length ? 'few' : 'many'} arguments to function call '${e.name}', expected ${d.isVariadic ? 'at least ' : ''}${params.length}, have ${n}`);
      return;
    }
    for (let i = 0; i < n; i++) {
      const a = e.args[i];
      if (a.type.kind === 'error') continue;
      if (i >= params.length) {
        // Variadic argument of putf: default argument promotions (float → double).
        if (a.type.kind === 'array' || a.type.kind === 'pointer') {
          this.error(exprStart(a), `cannot pass an array to the variadic arguments of '${e.name}'`);
        } else if (this.requireScalar(a) && a.type.kind === 'float') {
          e.args[i] = this.convert('fpext', a, DOUBLE, a.constValue);
        }
        continue;
      }
      const pt = params[i].type;
      if (pt.kind === 'string') {
        if (a.kind !== 'StringLiteral') this.error(exprStart(a), `format argument of '${e.name}' must be a string literal`);
        continue;
      }
      if (pt.kind === 'int' || pt.kind === 'float') {
        if (a.type.kind === 'array' || a.type.kind === 'pointer') {
          this.error(exprStart(a), `argument ${i + 1} of '${e.name}' has type '${typeToString(a.type)}', but the parameter has type '${typeToString(pt)}'`);
        } else if (this.requireScalar(a)) {
          e.args[i] = this.coerce(a, pt);
        }
        continue;
      }
      if (pt.kind !== 'pointer') continue;
      let given: Type = a.type;
      if (given.kind === 'array') given = pointerType(given.elem, given.dims.slice(1));
      if (!sameType(given, pt)) {
        if (a.type.kind === 'string') this.requireScalar(a);
        else this.error(exprStart(a), `argument ${i + 1} of '${e.name}' has type '${typeToString(a.type)}', but the parameter has type '${typeToString(pt)}'`);
        continue;
      }
      if (a.type.kind === 'array') {
        (a as LVal).access = 'address';
        e.args[i] = this.convert('decay', a, given, undefined);
      }
    }
  }

  private exitUnary(e: Unary): void {
    const x = e.operand;
    if (!this.requireScalar(x)) return;
    const c = x.constValue;
    if (e.op === '!') {
      e.type = INT;
      if (c !== undefined) e.constValue = foldNot(c);
      return;
    }
    e.type = x.type;
    if (c !== undefined) e.constValue = e.op === '-' ? foldNeg(x.type.kind === 'float', c) : c;
  }

  private exitBinary(e: Binary): void {
    const okL = this.requireScalar(e.lhs);
    const okR = this.requireScalar(e.rhs);
    if (!okL || !okR) return;
    const isFloat = e.lhs.type.kind === 'float' || e.rhs.type.kind === 'float';
    if (e.op === '%' && isFloat) {
      this.error(e.pos, `invalid operands to binary expression ('${typeToString(e.lhs.type)}' % '${typeToString(e.rhs.type)}'): '%' needs two ints`);
      return;
    }
    const t: ScalarType = isFloat ? FLOAT : INT;
    e.lhs = this.coerce(e.lhs, t);
    e.rhs = this.coerce(e.rhs, t);
    const a = e.lhs.constValue;
    const b = e.rhs.constValue;
    switch (e.op) {
      case '+': case '-': case '*': case '/': case '%':
        e.type = t;
        if (a !== undefined && b !== undefined) e.constValue = isFloat ? foldFloatArith(e.op, a, b) : foldIntArith(e.op, a, b);
        break;
      default:
        e.type = INT;
        if (a !== undefined && b !== undefined) e.constValue = foldCompare(e.op, a, b);
        break;
    }
  }

  private exitLogical(e: Logical): void {
    const okL = this.requireScalar(e.lhs);
    const okR = this.requireScalar(e.rhs);
    if (!okL || !okR) return;
    e.type = INT;
    const a = e.lhs.constValue;
    const b = e.rhs.constValue;
    if (a !== undefined && b !== undefined) {
      e.constValue = e.op === '&&' ? (a !== 0 && b !== 0 ? 1 : 0) : (a !== 0 || b !== 0 ? 1 : 0);
    }
  }
}

/** Annotates `program` in place; reports into `diag`. */
export function analyzeProgram(program: Program, diag: DiagnosticBag): void {
  new Analyzer(program, diag).run();
}

