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
  type Block, type DeclStmt, type ElemKind, type Expr, type FuncDecl, type InitList,
  type Program, type Stmt, type VarDecl, type Storage, type If, type While,
  ERROR, INT, FLOAT, VOID,
} from './ast.js';
import { DiagnosticBag, SourceFile, type Diagnostic } from './diagnostics.js';
import { Tok } from './lexer.js';
import { ExprParser, FATAL, STOP } from './parser-expr.js';

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

export class Parser extends ExprParser {
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
}

/** Parses a SysY program. On a syntax error, `program` holds what was parsed before it. */
export function parseProgram(source: SourceFile): ParseResult {
  const diag = new DiagnosticBag(source);
  const program = new Parser(source, diag).parseProgram();
  return { program, diagnostics: diag.list };
}
