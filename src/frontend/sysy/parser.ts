/**
 * Hand-written parser for SysY 2022, building the tree of ast.ts.
 *
 * Nothing here recurses on the input, so any nesting depth parses:
 * - expressions use operator-precedence parsing (Dijkstra's shunting yard,
 *   as in Aho, Lam, Sethi & Ullman §4.6) with an explicit operator stack and
 *   operand stack; '(' of a group, '(' of a call and '[' of an index are
 *   barriers on the operator stack, so `((((x))))` and `f(g(h(x)))` need no
 *   recursion;
 * - statements use a pushdown automaton over a stack of frames (open block,
 *   `if` waiting for its then/else branch, `while` waiting for its body); the
 *   innermost waiting `if` is offered an `else` first, which resolves the
 *   dangling else as C does;
 * - initializer lists `{...{...}...}` use their own stack of open lists.
 *
 * Grammar (SysY 2022, plus three C conveniences: relational and logical
 * operators anywhere an expression is allowed, function prototypes
 * `int f(int a[]);` (needed for mutual recursion), and `f(void)`):
 *
 *   CompUnit  → { Decl | FuncDef | FuncProto }
 *   Decl      → ['const'] BType Def { ',' Def } ';'
 *   Def       → Ident { '[' Exp ']' } [ '=' InitVal ]
 *   InitVal   → Exp | '{' [ InitVal { ',' InitVal } ] '}'
 *   FuncDef   → FuncType Ident '(' [ Params ] ')' Block
 *   Param     → BType Ident [ '[' [Exp] ']' { '[' Exp ']' } ]
 *   Stmt      → LVal '=' Exp ';' | [Exp] ';' | Block | 'if' '(' Exp ')' Stmt [ 'else' Stmt ]
 *             | 'while' '(' Exp ')' Stmt | 'break' ';' | 'continue' ';' | 'return' [Exp] ';'
 *   Exp       → C precedence: || < && < == != < < > <= >= < + - < * / % < unary + - !
 *
 * Errors: panic-mode recovery. After a syntax error in a statement or
 * declaration the parser skips to the next ';' (or past a balanced `{...}`,
 * or up to the '}' closing the current block) and goes on with the next
 * statement or declaration, so one run reports several syntax errors (at most
 * 20). Semantic checks are left to sema.ts, which runs only on trees without
 * syntax errors.
 */

import {
  type Block, type Call, type DeclStmt, type ElemKind, type Expr, type FuncDecl, type InitList,
  type LVal, type Program, type BinaryOp, type Stmt, type VarDecl, type Storage, type If, type While,
  ERROR, INT, FLOAT, VOID,
} from './ast.js';
import { DiagnosticBag, SourceFile, type Diagnostic } from './diagnostics.js';
import { Lexer, Tok, tokName } from './lexer.js';

/** Thrown at a syntax error, caught by panic-mode recovery (see `recover`). */
class StopParsing {}
const STOP = new StopParsing();
/** Thrown when recovery is pointless (end of file, too many errors): ends the parse. */
const FATAL = new StopParsing();
/** After this many syntax errors the parse gives up. */
const MAX_SYNTAX_ERRORS = 20;

// Operator-stack entries: binary operators are their Tok; the rest are below.
const OP_PAREN = -1;
const OP_CALL = -2;
const OP_INDEX = -3;
const OP_NEG = -4;
const OP_PLUS = -5;
const OP_NOT = -6;

const UNARY_PREC = 7;
function binaryPrec(k: Tok): number {
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

const BINARY_SPELLING: Partial<Record<Tok, string>> = {
  [Tok.Plus]: '+', [Tok.Minus]: '-', [Tok.Star]: '*', [Tok.Slash]: '/', [Tok.Percent]: '%',
  [Tok.Lt]: '<', [Tok.Gt]: '>', [Tok.Le]: '<=', [Tok.Ge]: '>=', [Tok.EqEq]: '==', [Tok.NotEq]: '!=',
};

// Statement frames.
const F_BLOCK = 0;
const F_IF_THEN = 1;
const F_IF_ELSE = 2;
const F_WHILE = 3;

class Frame {
  constructor(
    public kind: number,
    public pos: number,
    public items: (Stmt | DeclStmt)[] | null,
    public cond: Expr | null,
    public then: Stmt | null,
  ) {}
}

export interface ParseResult {
  program: Program;
  diagnostics: Diagnostic[];
}

export class Parser {
  private readonly lx: Lexer;
  private readonly diag: DiagnosticBag;
  readonly source: SourceFile;
  private nextId = 0;
  /** End offset of the last consumed token (where a missing ';' belongs). */
  private prevEnd = 0;
  /** The first token was a lexical error. */
  private fatalAtStart = false;
  /** Braces of an initializer list left open by a syntax error inside it. */
  private openInitBraces = 0;

  // Expression stacks, reused across expressions (parseExpr is not re-entered).
  private ops: number[] = [];
  private opPos: number[] = [];
  private opNode: (Call | LVal | null)[] = [];
  private operands: Expr[] = [];

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

  private fail(pos: number, message: string): never {
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
  private recover(atFileScope: boolean): void {
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
  private tok(): Tok {
    return this.lx.kind;
  }

  /** Lexical errors end the parse: a bad token (an unterminated string, say) can swallow text. */
  private lexError(): never {
    this.diag.error(this.source.loc(this.lx.errorPos), this.lx.error);
    throw FATAL;
  }

  private advance(): void {
    this.prevEnd = this.lx.end;
    this.lx.next();
    if (this.tok() === Tok.Error) this.lexError();
  }

  private found(): string {
    const lx = this.lx;
    if (this.tok() === Tok.Ident) return `identifier '${lx.text}'`;
    if (this.tok() === Tok.IntLit || this.tok() === Tok.FloatLit) return `'${this.source.text.slice(lx.start, lx.end)}'`;
    return tokName(this.tok());
  }

  private expect(kind: Tok, context = ''): void {
    if (this.tok() !== kind) {
      this.fail(this.lx.start, `expected ${tokName(kind)}${context}, found ${this.found()}`);
    }
    this.advance();
  }

  /** A missing ';' is reported right after the previous token, like clang does. */
  private expectSemi(after: string): void {
    if (this.tok() !== Tok.Semi) this.fail(this.prevEnd, `expected ';' after ${after}`);
    this.advance();
  }

  private expectIdent(context: string): string {
    if (this.tok() !== Tok.Ident) this.fail(this.lx.start, `expected identifier ${context}, found ${this.found()}`);
    const name = this.lx.text;
    this.advance();
    return name;
  }

  // ------------------------------------------------------------ program

  parseProgram(): Program {
    const items: (DeclStmt | FuncDecl)[] = [];
    const program: Program = {
      kind: 'Program', source: this.source, items, globals: [], functions: [], runtime: [], declCount: 0,
    };
    try {
      while (this.tok() !== Tok.EOF && !this.fatalAtStart) {
        try {
          this.parseTopLevelItem(items);
        } catch (e) {
          if (e !== STOP) throw e;
          this.recover(true);
        }
      }
    } catch (e) {
      if (e !== STOP && e !== FATAL) throw e;
    }
    program.declCount = this.nextId;
    return program;
  }

  private parseTopLevelItem(items: (DeclStmt | FuncDecl)[]): void {
    {
      {
        const k = this.tok();
        if (k === Tok.KwConst) {
          items.push(this.parseDeclStmt('global'));
        } else if (k === Tok.KwInt || k === Tok.KwFloat || k === Tok.KwVoid) {
          const pos = this.lx.start;
          this.advance();
          const namePos = this.lx.start;
          const name = this.expectIdent('after type');
          if (this.tok() === Tok.LParen) {
            items.push(this.parseFunction(k, name, namePos));
          } else {
            if (k === Tok.KwVoid) this.fail(namePos, `variable '${name}' declared void`);
            items.push(this.parseDeclRest(pos, false, k === Tok.KwInt ? 'int' : 'float', name, namePos, 'global'));
          }
        } else {
          this.fail(this.lx.start, `expected a declaration or function definition, found ${this.found()}`);
        }
      }
    }
  }

  // ------------------------------------------------------------ declarations

  private parseDeclStmt(storage: Storage): DeclStmt {
    const pos = this.lx.start;
    let isConst = false;
    if (this.tok() === Tok.KwConst) {
      isConst = true;
      this.advance();
    }
    const k = this.tok();
    if (k === Tok.KwVoid) {
      this.advance();
      const namePos = this.lx.start;
      const name = this.expectIdent('after type');
      this.fail(namePos, `variable '${name}' declared void`);
    }
    if (k !== Tok.KwInt && k !== Tok.KwFloat) this.fail(this.lx.start, `expected 'int' or 'float', found ${this.found()}`);
    this.advance();
    const namePos = this.lx.start;
    const name = this.expectIdent('in declaration');
    return this.parseDeclRest(pos, isConst, k === Tok.KwInt ? 'int' : 'float', name, namePos, storage);
  }

  /** The rest of a declaration after its first name. */
  private parseDeclRest(pos: number, isConst: boolean, elem: ElemKind, name: string, namePos: number, storage: Storage): DeclStmt {
    const decls: VarDecl[] = [];
    for (;;) {
      const dims: (Expr | null)[] = [];
      while (this.tok() === Tok.LBracket) {
        this.advance();
        dims.push(this.parseExpr());
        this.expect(Tok.RBracket, ' after array size');
      }
      let init: Expr | InitList | null = null;
      if (this.tok() === Tok.Assign) {
        this.advance();
        init = this.parseInit();
      }
      decls.push(this.makeVar(namePos, name, storage, isConst, elem, dims, init));
      if (this.tok() === Tok.Comma) {
        this.advance();
        namePos = this.lx.start;
        name = this.expectIdent("after ','");
        continue;
      }
      this.expectSemi('declaration');
      return { kind: 'DeclStmt', pos, decls };
    }
  }

  private makeVar(pos: number, name: string, storage: Storage, isConst: boolean, elem: ElemKind,
    dimExprs: (Expr | null)[], init: Expr | InitList | null): VarDecl {
    return {
      kind: 'VarDecl', id: this.nextId++, pos, name, storage, isConst, elem, dimExprs, init,
      type: ERROR, initializer: null, constValue: undefined,
    };
  }

  /** InitVal, with an explicit stack of open brace lists. */
  private parseInit(): Expr | InitList {
    if (this.tok() !== Tok.LBrace) return this.parseExpr();
    const stack: InitList[] = [];
    stack.push({ kind: 'InitList', pos: this.lx.start, items: [] });
    this.advance();
    try {
      return this.parseInitItems(stack);
    } catch (e) {
      this.openInitBraces = stack.length;
      throw e;
    }
  }

  private parseInitItems(stack: InitList[]): InitList {
    for (;;) {
      // Expecting an item, or '}' right after '{'.
      const top = stack[stack.length - 1];
      if (this.tok() === Tok.LBrace) {
        stack.push({ kind: 'InitList', pos: this.lx.start, items: [] });
        this.advance();
        continue;
      }
      if (this.tok() === Tok.RBrace && top.items.length === 0) {
        // Empty list: handled by the closing loop below.
      } else {
        top.items.push(this.parseExpr());
      }
      // After an item: ',' continues the innermost list, '}' closes it.
      for (;;) {
        if (this.tok() === Tok.Comma) {
          this.advance();
          break;
        }
        if (this.tok() !== Tok.RBrace) this.fail(this.lx.start, `expected ',' or '}' in initializer list, found ${this.found()}`);
        this.advance();
        const done = stack.pop()!;
        if (stack.length === 0) return done;
        stack[stack.length - 1].items.push(done);
      }
    }
  }

  private parseFunction(typeTok: Tok, name: string, namePos: number): FuncDecl {
    this.advance(); // '('
    const params: VarDecl[] = [];
    if (this.tok() === Tok.KwVoid) {
      this.advance();
      if (this.tok() !== Tok.RParen) this.fail(this.lx.start, "'void' must be the only parameter");
    } else if (this.tok() !== Tok.RParen) {
      for (;;) {
        const k = this.tok();
        if (k !== Tok.KwInt && k !== Tok.KwFloat) {
          this.fail(this.lx.start, k === Tok.KwVoid ? "parameter cannot have type 'void'" : `expected parameter type 'int' or 'float', found ${this.found()}`);
        }
        this.advance();
        const pPos = this.lx.start;
        const pName = this.expectIdent('as parameter name');
        const dims: (Expr | null)[] = [];
        if (this.tok() === Tok.LBracket) {
          this.advance();
          // C allows (and ignores) a size in the first dimension; SysY writes '[]'.
          if (this.tok() === Tok.RBracket) dims.push(null);
          else dims.push(this.parseExpr());
          this.expect(Tok.RBracket, ' in array parameter');
          while (this.tok() === Tok.LBracket) {
            this.advance();
            dims.push(this.parseExpr());
            this.expect(Tok.RBracket, ' after array size');
          }
        }
        params.push(this.makeVar(pPos, pName, 'param', false, k === Tok.KwInt ? 'int' : 'float', dims, null));
        if (this.tok() !== Tok.Comma) break;
        this.advance();
      }
    }
    this.expect(Tok.RParen, ' after parameters');
    let body: Block | null = null;
    if (this.tok() === Tok.Semi) this.advance();
    else if (this.tok() === Tok.LBrace) body = this.parseBlock();
    else this.fail(this.lx.start, `expected function body '{' or ';', found ${this.found()}`);
    const returnType = typeTok === Tok.KwInt ? INT : typeTok === Tok.KwFloat ? FLOAT : VOID;
    return {
      kind: 'FuncDecl', id: this.nextId++, pos: namePos, name, returnType, params, body,
      isRuntime: false, linkName: name, lineArgument: false, isVariadic: false, definition: null, used: false,
    };
  }

  // ------------------------------------------------------------ statements

  /** A block starting at the current '{', as a pushdown automaton over `frames`. */
  private parseBlock(): Block {
    const frames: Frame[] = [new Frame(F_BLOCK, this.lx.start, [], null, null)];
    this.advance();
    const ITEM = 0;
    const STMT = 1;
    const DONE = 2;
    let mode = ITEM;
    let completed: Stmt = null as unknown as Stmt;
    for (;;) {
      if (mode === ITEM) {
        const top = frames[frames.length - 1];
        const k = this.tok();
        if (k === Tok.RBrace) {
          this.advance();
          frames.pop();
          completed = { kind: 'Block', pos: top.pos, items: top.items! };
          mode = DONE;
        } else if (k === Tok.KwConst || k === Tok.KwInt || k === Tok.KwFloat || k === Tok.KwVoid) {
          try {
            top.items!.push(this.parseDeclStmt('local'));
          } catch (e) {
            this.recoverInBlock(e);
          }
          continue;
        } else if (k === Tok.EOF) {
          this.diag.error(this.source.loc(this.lx.start), `expected '}' to close the block opened at line ${this.source.lineOf(top.pos)}, found end of file`);
          throw FATAL;
        } else {
          mode = STMT;
        }
      }
      if (mode === STMT) {
        const k = this.tok();
        const pos = this.lx.start;
        if (k === Tok.LBrace) {
          this.advance();
          frames.push(new Frame(F_BLOCK, pos, [], null, null));
          mode = ITEM;
          continue;
        }
        try {
          if (k === Tok.KwIf || k === Tok.KwWhile) {
            this.advance();
            const what = k === Tok.KwIf ? "'if'" : "'while'";
            this.expect(Tok.LParen, ` after ${what}`);
            const cond = this.parseExpr();
            this.expect(Tok.RParen, ` after ${what} condition`);
            frames.push(new Frame(k === Tok.KwIf ? F_IF_THEN : F_WHILE, pos, null, cond, null));
            continue;
          }
          completed = this.parseSimpleStatement();
        } catch (e) {
          // The bad statement becomes an empty one, so enclosing frames stay well formed.
          this.recoverInBlock(e);
          completed = { kind: 'Empty', pos };
        }
        mode = DONE;
      }
      // DONE: hand `completed` to the innermost open frame.
      for (;;) {
        if (frames.length === 0) return completed as Block;
        const top = frames[frames.length - 1];
        if (top.kind === F_BLOCK) {
          top.items!.push(completed);
          mode = ITEM;
          break;
        }
        if (top.kind === F_IF_THEN) {
          if (this.tok() === Tok.KwElse) {
            this.advance();
            top.then = completed;
            top.kind = F_IF_ELSE;
            mode = STMT;
            break;
          }
          frames.pop();
          completed = { kind: 'If', pos: top.pos, cond: top.cond!, then: completed, else: null } satisfies If;
          continue;
        }
        frames.pop();
        if (top.kind === F_IF_ELSE) {
          completed = { kind: 'If', pos: top.pos, cond: top.cond!, then: top.then!, else: completed } satisfies If;
        } else {
          completed = { kind: 'While', pos: top.pos, cond: top.cond!, body: completed } satisfies While;
        }
      }
    }
  }

  private recoverInBlock(e: unknown): void {
    if (e !== STOP) throw e;
    this.recover(false);
    if (this.tok() === Tok.EOF) {
      this.diag.error(this.source.loc(this.lx.start), "expected '}' before end of file");
      throw FATAL;
    }
  }

  /** Statements that contain no statements. */
  private parseSimpleStatement(): Stmt {
    const pos = this.lx.start;
    switch (this.tok()) {
      case Tok.Semi:
        this.advance();
        return { kind: 'Empty', pos };
      case Tok.KwBreak:
        this.advance();
        this.expectSemi("'break'");
        return { kind: 'Break', pos, loop: null };
      case Tok.KwContinue:
        this.advance();
        this.expectSemi("'continue'");
        return { kind: 'Continue', pos, loop: null };
      case Tok.KwReturn: {
        this.advance();
        let value: Expr | null = null;
        if (this.tok() !== Tok.Semi) value = this.parseExpr();
        this.expectSemi('return statement');
        return { kind: 'Return', pos, value, func: null };
      }
      case Tok.KwElse:
        this.fail(pos, "'else' without a matching 'if'");
      default: {
        const expr = this.parseExpr();
        if (this.tok() === Tok.Assign) {
          const eq = this.lx.start;
          if (expr.kind !== 'LVal') this.fail(eq, 'expression is not assignable');
          this.advance();
          const value = this.parseExpr();
          this.expectSemi('assignment');
          return { kind: 'Assign', pos: eq, target: expr, value };
        }
        this.expectSemi('expression');
        return { kind: 'ExprStmt', pos, expr };
      }
    }
  }

  // ------------------------------------------------------------ expressions

  private pushOp(op: number, pos: number, node: Call | LVal | null): void {
    this.ops.push(op);
    this.opPos.push(pos);
    this.opNode.push(node);
  }

  /** Pops one operator and builds its node from the operand stack. */
  private reduce(): void {
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

  private isBarrier(op: number): boolean {
    return op === OP_PAREN || op === OP_CALL || op === OP_INDEX;
  }

  /** Reduces down to the innermost barrier above `base`; returns it (or 0 if none). */
  private reduceToBarrier(base: number): number {
    const ops = this.ops;
    while (ops.length > base) {
      const top = ops[ops.length - 1];
      if (this.isBarrier(top)) return top;
      this.reduce();
    }
    return 0;
  }

  private closeName(op: number): string {
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

/** Parses a SysY program. On a syntax error, `program` holds what was parsed before it. */
export function parseProgram(source: SourceFile): ParseResult {
  const diag = new DiagnosticBag(source);
  const program = new Parser(source, diag).parseProgram();
  return { program, diagnostics: diag.list };
}
