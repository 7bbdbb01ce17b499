/**
 * SysY semantic analysis, part 1: the symbol table (scopes, lookup, redefinition errors)
 * and the typing of expressions with their implicit conversions and constant folding
 * (sema.ts has the declarations, statements and the program; its header says how the
 * scopes and the iterative walks work, and const-eval.ts folds constants).
 */

import {
  type Binary, type Call, type Decl, type ElemKind, type Expr,
  type LVal, type Logical, type Program, type ScalarType,
  type Type, type Unary, type Convert, type ConvertOp,
  DOUBLE, ERROR, FLOAT, INT, STRING,
  arrayType, exprStart, pointerType, sameType, scalarOf, typeToString,
} from './ast.js';
import { DiagnosticBag } from './diagnostics.js';
import {
  floatToInt, foldCompare, foldFloatArith, foldIntArith, foldNeg, foldNot, intToFloat,
} from './const-eval.js';

export interface Binding {
  decl: Decl;
  depth: number;
  prev: Binding | undefined;
}

export abstract class ExprChecker {
  protected readonly diag: DiagnosticBag;
  protected readonly program: Program;
  protected readonly bindings = new Map<string, Binding>();
  protected readonly scopes: string[][] = [];

  // Reused post-order stacks for expressions.
  private readonly exprStack: Expr[] = [];
  private readonly exprExit: boolean[] = [];

  constructor(program: Program, diag: DiagnosticBag) {
    this.program = program;
    this.diag = diag;
  }

  protected error(pos: number, message: string): void {
    this.diag.error(this.program.source.loc(pos), message);
  }

  protected note(pos: number, message: string): void {
    this.diag.note(this.program.source.loc(pos), message);
  }

  // ------------------------------------------------------------ scopes

  protected openScope(): void {
    this.scopes.push([]);
  }

  protected closeScope(): void {
    const names = this.scopes.pop()!;
    for (const name of names) {
      const b = this.bindings.get(name)!;
      if (b.prev) this.bindings.set(name, b.prev);
      else this.bindings.delete(name);
    }
  }

  protected get depth(): number {
    return this.scopes.length - 1;
  }

  protected lookup(name: string): Decl | undefined {
    return this.bindings.get(name)?.decl;
  }

  /** Binds `decl` in the current scope; reports a redefinition instead if the name is taken there. */
  protected declare(decl: Decl): boolean {
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

  // ------------------------------------------------------------ expressions

  /** Reports (once) and returns false unless `e` is an int or float value. */
  protected requireScalar(e: Expr): boolean {
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

  protected convert(op: ConvertOp, operand: Expr, type: Type, constValue: number | undefined): Convert {
    return { kind: 'Convert', pos: operand.pos, type, constValue, op, operand };
  }

  /** `e` (a scalar) as a value of scalar type `t`. */
  protected coerce(e: Expr, t: ScalarType): Expr {
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

  protected exitLVal(e: LVal): void {
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

  protected exitCall(e: Call): void {
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

  protected exitUnary(e: Unary): void {
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

  protected exitBinary(e: Binary): void {
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

  protected exitLogical(e: Logical): void {
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
