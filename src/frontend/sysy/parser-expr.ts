/**
 * SysY parser, part 1: the token helpers, panic-mode error reporting, and expressions by
 * operator precedence with explicit stacks (parser.ts has declarations, statements and
 * the program; its header gives the grammar and how recovery works).
 */

import { type BinaryOp, type Call, type Expr, type LVal, ERROR } from './ast.js';
import { DiagnosticBag, SourceFile } from './diagnostics.js';
import { Lexer, Tok, tokName } from './lexer.js';

/** Thrown at a syntax error, caught by panic-mode recovery (see `recover`). */
export class StopParsing {}
export const STOP = new StopParsing();
/** Thrown when recovery is pointless (end of file, too many errors): ends the parse. */
export const FATAL = new StopParsing();
/** After this many syntax errors the parse gives up. */
export const MAX_SYNTAX_ERRORS = 20;

// Operator-stack entries: binary operators are their Tok; the rest are below.
export const OP_PAREN = -1;
export const OP_CALL = -2;
export const OP_INDEX = -3;
export const OP_NEG = -4;
export const OP_PLUS = -5;
export const OP_NOT = -6;

export const UNARY_PREC = 7;
export function binaryPrec(k: Tok): number {
  switch (k) {
    case Tok.OrOr: return 1;
    case Tok.AndAnd: return 2;
    case Tok.EqEq: case Tok.NotEq: return 3;
    case Tok.Lt: case Tok.Gt: case Tok.Le: case Tok.Ge: return 4;
    case Tok.Plus: case Tok.Minus: return 5;
    case Tok.Star: case Tok.Slash: case Tok.Percent: return 6;
    default: return 0;
  }
}

export const BINARY_SPELLING: Partial<Record<Tok, string>> = {
  [Tok.Plus]: '+', [Tok.Minus]: '-', [Tok.Star]: '*', [Tok.Slash]: '/', [Tok.Percent]: '%',
  [Tok.Lt]: '<', [Tok.Gt]: '>', [Tok.Le]: '<=', [Tok.Ge]: '>=', [Tok.EqEq]: '==', [Tok.NotEq]: '!=',
};

export abstract class ExprParser {
  protected readonly lx: Lexer;
  protected readonly diag: DiagnosticBag;
  readonly source: SourceFile;
  protected nextId = 0;
  /** End offset of the last consumed token (where a missing ';' belongs). */
  protected prevEnd = 0;
  /** The first token was a lexical error. */
  protected fatalAtStart = false;
  /** Braces of an initializer list left open by a syntax error inside it. */
  protected openInitBraces = 0;

  // Expression stacks, reused across expressions (parseExpr is not re-entered).
  protected ops: number[] = [];
  protected opPos: number[] = [];
  protected opNode: (Call | LVal | null)[] = [];
  protected operands: Expr[] = [];

  constructor(source: SourceFile, diag: DiagnosticBag) {
    this.source = source;
    this.diag = diag;
    this.lx = new Lexer(source.text);
    if (this.tok() === Tok.Error) {
      this.diag.error(this.source.loc(this.lx.errorPos), this.lx.error);
      this.fatalAtStart = true;
    }
  }

  // ------------------------------------------------------------ helpers

  protected fail(pos: number, message: string): never {
    this.diag.error(this.source.loc(pos), message);
    throw STOP;
  }

  /**
   * Panic-mode recovery: skips to the end of the broken statement or
   * declaration: past the next ';', past a `{...}` opened while skipping, or
   * up to (not past) a '}' that closes the enclosing block. Braces of an
   * initializer list that was being parsed are closed first. A lexical error
   * met while skipping ends the parse.
   */
  protected recover(atFileScope: boolean): void {
    this.ops.length = this.opPos.length = this.opNode.length = this.operands.length = 0;
    if (this.diag.errorCount >= MAX_SYNTAX_ERRORS) throw FATAL;
    const lx = this.lx;
    let initDepth = this.openInitBraces;
    this.openInitBraces = 0;
    let depth = 0;
    for (;;) {
      const k = lx.kind;
      if (k === Tok.EOF) return;
      if (k === Tok.Error) this.lexError();
      if (initDepth > 0) {
        if (k === Tok.LBrace) initDepth++;
        else if (k === Tok.RBrace) initDepth--;
      } else if (k === Tok.Semi && depth === 0) {
        this.advance();
        return;
      } else if (k === Tok.LBrace) {
        depth++;
      } else if (k === Tok.RBrace) {
        if (depth === 0 && !atFileScope) return; // closes the enclosing block
        if (depth > 0) {
          depth--;
          if (depth === 0) {
            this.advance();
            return;
          }
        } // else: a stray '}' at file scope, skipped
      }
      lx.next();
    }
  }

  /** Current token kind (a method, so TypeScript does not narrow it across advance()). */
  protected tok(): Tok {
    return this.lx.kind;
  }

  /** Lexical errors end the parse: a bad token (an unterminated string, say) can swallow text. */
  protected lexError(): never {
    this.diag.error(this.source.loc(this.lx.errorPos), this.lx.error);
    throw FATAL;
  }

  protected advance(): void {
    this.prevEnd = this.lx.end;
    this.lx.next();
    if (this.tok() === Tok.Error) this.lexError();
  }

  protected found(): string {
    const lx = this.lx;
    if (this.tok() === Tok.Ident) return `identifier '${lx.text}'`;
    if (this.tok() === Tok.IntLit || this.tok() === Tok.FloatLit) return `'${this.source.text.slice(lx.start, lx.end)}'`;
    return tokName(this.tok());
  }

  protected expect(kind: Tok, context = ''): void {
    if (this.tok() !== kind) {
      this.fail(this.lx.start, `expected ${tokName(kind)}${context}, found ${this.found()}`);
    }
    this.advance();
  }

  /** A missing ';' is reported right after the previous token, like clang does. */
  protected expectSemi(after: string): void {
    if (this.tok() !== Tok.Semi) this.fail(this.prevEnd, `expected ';' after ${after}`);
    this.advance();
  }

  protected expectIdent(context: string): string {
    if (this.tok() !== Tok.Ident) this.fail(this.lx.start, `expected identifier ${context}, found ${this.found()}`);
    const name = this.lx.text;
    this.advance();
    return name;
  }

  // ------------------------------------------------------------ expressions

  protected pushOp(op: number, pos: number, node: Call | LVal | null): void {
    this.ops.push(op);
    this.opPos.push(pos);
    this.opNode.push(node);
  }

  /** Pops one operator and builds its node from the operand stack. */
  protected reduce(): void {
    const op = this.ops.pop()!;
    const pos = this.opPos.pop()!;
    this.opNode.pop();
    const operands = this.operands;
    if (op === OP_NEG || op === OP_PLUS || op === OP_NOT) {
      const operand = operands.pop()!;
      // -2147483648: the literal 2147483648 only fits `int` once negated.
      if (op === OP_NEG && operand.kind === 'IntLiteral' && operand.value === 2147483648) {
        operands.push({ kind: 'IntLiteral', pos, type: ERROR, constValue: undefined, value: -2147483648 });
        return;
      }
      operands.push({ kind: 'Unary', pos, type: ERROR, constValue: undefined, op: op === OP_NEG ? '-' : op === OP_PLUS ? '+' : '!', operand });
      return;
    }
    const rhs = operands.pop()!;
    const lhs = operands.pop()!;
    if (op === Tok.AndAnd || op === Tok.OrOr) {
      operands.push({ kind: 'Logical', pos, type: ERROR, constValue: undefined, op: op === Tok.AndAnd ? '&&' : '||', lhs, rhs });
    } else {
      operands.push({ kind: 'Binary', pos, type: ERROR, constValue: undefined, op: BINARY_SPELLING[op as Tok]! as BinaryOp, lhs, rhs });
    }
  }

  protected isBarrier(op: number): boolean {
    return op === OP_PAREN || op === OP_CALL || op === OP_INDEX;
  }

  /** Reduces down to the innermost barrier above `base`; returns it (or 0 if none). */
  protected reduceToBarrier(base: number): number {
    const ops = this.ops;
    while (ops.length > base) {
      const top = ops[ops.length - 1];
      if (this.isBarrier(top)) return top;
      this.reduce();
    }
    return 0;
  }

  protected closeName(op: number): string {
    return op === OP_INDEX ? "']'" : "')'";
  }

  /** Exp, parsed without recursion. Stops before the first token that cannot continue it. */
  parseExpr(): Expr {
    const lx = this.lx;
    const ops = this.ops;
    const operands = this.operands;
    const base = ops.length;
    const operandBase = operands.length;
    for (;;) {
      // Operand expected.
      let k = this.tok();
      const pos = lx.start;
      if (k === Tok.Minus || k === Tok.Plus || k === Tok.Not) {
        this.pushOp(k === Tok.Minus ? OP_NEG : k === Tok.Plus ? OP_PLUS : OP_NOT, pos, null);
        this.advance();
        continue;
      }
      if (k === Tok.LParen) {
        this.pushOp(OP_PAREN, pos, null);
        this.advance();
        continue;
      }
      if (k === Tok.IntLit) {
        operands.push({ kind: 'IntLiteral', pos, type: ERROR, constValue: undefined, value: lx.value });
        this.advance();
      } else if (k === Tok.FloatLit) {
        operands.push({ kind: 'FloatLiteral', pos, type: ERROR, constValue: undefined, value: lx.value });
        this.advance();
      } else if (k === Tok.String) {
        operands.push({ kind: 'StringLiteral', pos, type: ERROR, constValue: undefined, value: lx.text });
        this.advance();
      } else if (k === Tok.Ident) {
        const name = lx.text;
        this.advance();
        if (this.tok() === Tok.LParen) {
          const call: Call = { kind: 'Call', pos, type: ERROR, constValue: undefined, name, args: [], callee: null, line: this.source.lineOf(pos) };
          this.advance();
          if (this.tok() === Tok.RParen) {
            this.advance();
            operands.push(call);
          } else {
            this.pushOp(OP_CALL, pos, call);
            continue;
          }
        } else {
          const lval: LVal = { kind: 'LVal', pos, type: ERROR, constValue: undefined, name, indices: [], decl: null, access: 'load' };
          if (this.tok() === Tok.LBracket) {
            this.pushOp(OP_INDEX, lx.start, lval);
            this.advance();
            continue;
          }
          operands.push(lval);
        }
      } else {
        this.fail(pos, `expected expression, found ${this.found()}`);
      }
      // Operator expected (an operand is on top).
      for (;;) {
        k = this.tok();
        const prec = binaryPrec(k);
        if (prec > 0) {
          while (ops.length > base) {
            const top = ops[ops.length - 1];
            if (this.isBarrier(top)) break;
            const topPrec = top < 0 ? UNARY_PREC : binaryPrec(top as Tok);
            if (topPrec < prec) break;
            this.reduce();
          }
          this.pushOp(k, lx.start, null);
          this.advance();
          break; // operand expected
        }
        if (k === Tok.RParen || k === Tok.Comma || k === Tok.RBracket) {
          const barrier = this.reduceToBarrier(base);
          // With no barrier open, the token belongs to the enclosing construct.
          if (barrier !== 0) {
          if (k === Tok.RParen && barrier === OP_PAREN) {
            ops.pop(); this.opPos.pop(); this.opNode.pop();
            this.advance();
            continue;
          }
          if ((k === Tok.RParen || k === Tok.Comma) && barrier === OP_CALL) {
            const call = this.opNode[this.opNode.length - 1] as Call;
            call.args.push(operands.pop()!);
            this.advance();
            if (k === Tok.Comma) break; // next argument
            ops.pop(); this.opPos.pop(); this.opNode.pop();
            operands.push(call);
            continue;
          }
          if (k === Tok.RBracket && barrier === OP_INDEX) {
            const lval = this.opNode[this.opNode.length - 1] as LVal;
            lval.indices.push(operands.pop()!);
            ops.pop(); this.opPos.pop(); this.opNode.pop();
            this.advance();
            if (this.tok() === Tok.LBracket) {
              this.pushOp(OP_INDEX, lx.start, lval);
              this.advance();
              break; // operand expected
            }
            operands.push(lval);
            continue;
          }
          this.fail(lx.start, `expected ${this.closeName(barrier)}, found ${this.found()}`);
          }
        }
        // Anything else ends the expression.
        const barrier = this.reduceToBarrier(base);
        if (barrier !== 0) {
          const open = this.opPos[ops.length - 1];
          const what = barrier === OP_INDEX ? "'['" : "'('";
          this.fail(lx.start, `expected ${this.closeName(barrier)} to match ${what} at column ${this.source.loc(open).col}, found ${this.found()}`);
        }
        if (operands.length !== operandBase + 1) throw new Error('internal error: unbalanced expression stack');
        return operands.pop()!;
      }
    }
  }
}
