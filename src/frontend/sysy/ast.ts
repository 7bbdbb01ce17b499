/**
 * The SysY abstract syntax tree, as the parser builds it and as `analyzeSysY`
 * annotates it. IR generation reads only the annotated form.
 *
 * After a successful `analyzeSysY` (no error diagnostics) the tree guarantees:
 *
 * - Names are resolved. Every `LVal` points at its `VarDecl` (`decl`), every
 *   `Call` at its `FuncDecl` (`callee`). Declarations have a program-wide
 *   unique integer `id` (0 ≤ id < `Program.declCount`), usable as an index
 *   into arrays. Shadowing is already resolved: two locals named `x` are two
 *   VarDecls with different ids.
 * - Every expression has a `type`: `int`, `float`, `void` (only a call used as
 *   a statement), an array type (an array or partially indexed array: only
 *   under a `decay` Convert, or alone as an `ExprStmt` that does nothing), a
 *   pointer type (an array parameter or a decayed array: only as a call
 *   argument or an `ExprStmt`), `string` (only the format of `putf`),
 *   `double` (only a variadic `putf` argument). No `error` types remain.
 * - Implicit conversions are explicit `Convert` nodes: `itof`/`ftoi` for
 *   int↔float in assignments, initializers, arguments, returns and the
 *   usual arithmetic conversions of binary operators; `decay` where an array
 *   is passed to an array parameter; `fpext` (float→double) for `putf`'s
 *   variadic arguments, as C's default argument promotion does. Both operands
 *   of an arithmetic or comparison `Binary` have the same type.
 * - Conditions (`If.cond`, `While.cond`, operands of `!`, `&&`, `||`) have
 *   type `int` or `float`; "true" means `!= 0` in that type. `Logical`, `!`
 *   and comparisons yield `int` 0 or 1.
 * - `constValue` is set on every expression whose value is known at compile
 *   time (literals, `const` scalars, `const` array elements at constant
 *   indices, and operators over those), folded with C semantics: ints wrap to
 *   32 bits, `/` and `%` truncate toward zero, floats are IEEE single
 *   (`Math.fround` after every step). Initializers of globals and `const`s
 *   are always constant; array dimensions are folded into `ArrayType.dims`.
 * - `LVal.access` says how the l-value is used: `load` (read its value; for an
 *   array parameter with no index that value is the pointer), `store` (the
 *   target of an `Assign`), `address` (an array or sub-array whose address is
 *   passed, directly under a `decay` Convert; or an array named by itself in
 *   an `ExprStmt`, `a;`, which does nothing).
 * - Array parameters have `PointerType`: `int a[][4]` is a pointer to
 *   `int[4]` (`{kind:'pointer', elem:'int', dims:[4]}`), `int a[]` a pointer to
 *   `int` (`dims: []`).
 * - Initializers are flattened (`VarDecl.initializer`): a scalar gets one
 *   converted expression; an array gets a sparse list of (row-major flat index
 *   → expression converted to the element type), sorted by index, with C's
 *   brace elision applied; every element not listed is zero. A local without
 *   initializer is uninitialized; a global without initializer is zero.
 * - `break`/`continue` point at their `While`, `return` at its `FuncDecl`;
 *   the value of `return` is converted to the return type.
 * - Calls of `starttime()`/`stoptime()` have a callee with
 *   `lineArgument: true` and `linkName` `_sysy_starttime`/`_sysy_stoptime`:
 *   lower them to `call void @_sysy_starttime(i32 LINE)` with `Call.line`.
 *   A function falling off its end returns 0 if it is `main` (C99), and an
 *   unspecified value otherwise.
 *
 * Nesting guarantee: there is no depth limit. 10,000 nested parentheses,
 * blocks, `if`s or unary minuses are accepted, so the tree can be as deep as
 * the input is long. The parser, the analyzer, `dumpAst` and `forEachChild`
 * users in this folder never recurse on the tree; IR generation must walk it
 * with an explicit stack too (or with `walkDeep` from walk.ts, which turns a
 * recursive generator into an explicit-stack walk). Parentheses make no nodes.
 *
 * Positions: every node has `pos`, a 0-based offset into the source; turn it
 * into line/column with `Program.source.loc(pos)`. For operators `pos` is the
 * operator; `exprStart(e)` gives the first character of an expression.
 */

import type { SourceFile } from './diagnostics.js';

// ---------------------------------------------------------------- types

export type ElemKind = 'int' | 'float';

export interface IntType { readonly kind: 'int' }
export interface FloatType { readonly kind: 'float' }
export interface VoidType { readonly kind: 'void' }
/** Only for `putf`'s variadic float arguments after promotion. */
export interface DoubleType { readonly kind: 'double' }
/** Only for the format string of `putf`. */
export interface StringType { readonly kind: 'string' }
/** Placeholder before analysis and after an error; absent from a checked tree. */
export interface ErrorType { readonly kind: 'error' }
/** `elem[dims[0]][dims[1]]...`; every dim ≥ 1; `dims.length` ≥ 1. */
export interface ArrayType { readonly kind: 'array'; readonly elem: ElemKind; readonly dims: readonly number[] }
/** Pointer to `elem[dims...]` (to a scalar `elem` when `dims` is empty). */
export interface PointerType { readonly kind: 'pointer'; readonly elem: ElemKind; readonly dims: readonly number[] }

export type ScalarType = IntType | FloatType;
export type Type = IntType | FloatType | VoidType | DoubleType | StringType | ErrorType | ArrayType | PointerType;

export const INT: IntType = { kind: 'int' };
export const FLOAT: FloatType = { kind: 'float' };
export const VOID: VoidType = { kind: 'void' };
export const DOUBLE: DoubleType = { kind: 'double' };
export const STRING: StringType = { kind: 'string' };
export const ERROR: ErrorType = { kind: 'error' };

export function arrayType(elem: ElemKind, dims: readonly number[]): ArrayType {
  return { kind: 'array', elem, dims };
}

export function pointerType(elem: ElemKind, dims: readonly number[]): PointerType {
  return { kind: 'pointer', elem, dims };
}

export function scalarOf(elem: ElemKind): ScalarType {
  return elem === 'int' ? INT : FLOAT;
}

export function isScalar(t: Type): t is ScalarType {
  return t.kind === 'int' || t.kind === 'float';
}

export function sameType(a: Type, b: Type): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'array' || a.kind === 'pointer') {
    const bb = b as ArrayType | PointerType;
    if (a.elem !== bb.elem || a.dims.length !== bb.dims.length) return false;
    for (let i = 0; i < a.dims.length; i++) if (a.dims[i] !== bb.dims[i]) return false;
  }
  return true;
}

/** Number of scalar elements in an array type (1 for scalars). */
export function elementCount(t: Type): number {
  if (t.kind !== 'array') return 1;
  let n = 1;
  for (const d of t.dims) n *= d;
  return n;
}

/** C-like spelling: `int`, `float[2][3]`, `int[][4]` (pointer to int[4]). */
export function typeToString(t: Type): string {
  switch (t.kind) {
    case 'array':
      return t.elem + t.dims.map((d) => `[${d}]`).join('');
    case 'pointer':
      return t.elem + '[]' + t.dims.map((d) => `[${d}]`).join('');
    case 'string':
      return 'string';
    case 'error':
      return '<error>';
    default:
      return t.kind;
  }
}

// ---------------------------------------------------------------- expressions

interface ExprBase {
  /** 0-based source offset (the operator for Unary/Binary/Logical). */
  readonly pos: number;
  /** Set by analysis (ERROR before). */
  type: Type;
  /** Compile-time value if constant (an int32 for int, a float32 for float). */
  constValue: number | undefined;
}

export interface IntLiteral extends ExprBase {
  readonly kind: 'IntLiteral';
  /** The literal's value; after analysis always in int32 range. */
  value: number;
}

export interface FloatLiteral extends ExprBase {
  readonly kind: 'FloatLiteral';
  /** Already rounded to IEEE single. */
  readonly value: number;
}

export interface StringLiteral extends ExprBase {
  readonly kind: 'StringLiteral';
  /** Decoded (escapes resolved); SysY only allows it as `putf`'s format. */
  readonly value: string;
}

export type Access = 'load' | 'store' | 'address';

/** `name[i][j]...` — a variable, possibly indexed (SysY's LVal). */
export interface LVal extends ExprBase {
  readonly kind: 'LVal';
  readonly name: string;
  readonly indices: Expr[];
  /** Resolved declaration (null before analysis or if undeclared). */
  decl: VarDecl | null;
  access: Access;
}

export interface Call extends ExprBase {
  readonly kind: 'Call';
  readonly name: string;
  readonly args: Expr[];
  callee: FuncDecl | null;
  /** 1-based line of the call (the argument of `_sysy_starttime`/`_sysy_stoptime`). */
  readonly line: number;
}

export type UnaryOp = '+' | '-' | '!';
export interface Unary extends ExprBase {
  readonly kind: 'Unary';
  readonly op: UnaryOp;
  operand: Expr;
}

export type ArithOp = '+' | '-' | '*' | '/' | '%';
export type CompareOp = '<' | '>' | '<=' | '>=' | '==' | '!=';
export type BinaryOp = ArithOp | CompareOp;

/** Arithmetic (result has the operands' type) or comparison (result int). */
export interface Binary extends ExprBase {
  readonly kind: 'Binary';
  readonly op: BinaryOp;
  lhs: Expr;
  rhs: Expr;
}

/** Short-circuit `&&` / `||`: `rhs` is evaluated only when needed. */
export interface Logical extends ExprBase {
  readonly kind: 'Logical';
  readonly op: '&&' | '||';
  lhs: Expr;
  rhs: Expr;
}

/** itof: int→float (sitofp); ftoi: float→int (fptosi, toward zero);
 *  decay: array → pointer to its first element; fpext: float→double. */
export type ConvertOp = 'itof' | 'ftoi' | 'decay' | 'fpext';
export interface Convert extends ExprBase {
  readonly kind: 'Convert';
  readonly op: ConvertOp;
  readonly operand: Expr;
}

export type Expr = IntLiteral | FloatLiteral | StringLiteral | LVal | Call | Unary | Binary | Logical | Convert;

// ---------------------------------------------------------------- initializers

/** A brace-enclosed initializer as written. */
export interface InitList {
  readonly kind: 'InitList';
  readonly pos: number;
  readonly items: (Expr | InitList)[];
}

export interface InitEntry {
  /** Row-major flat index into the array (0 for a scalar). */
  readonly index: number;
  /** Converted to the element type; constant for globals and consts. */
  readonly expr: Expr;
}

export type ResolvedInit =
  | { readonly kind: 'scalar'; readonly expr: Expr }
  /** Sorted by index, indices unique; unlisted elements are zero. `size` = element count. */
  | { readonly kind: 'array'; readonly entries: readonly InitEntry[]; readonly size: number };

// ---------------------------------------------------------------- declarations

export type Storage = 'global' | 'local' | 'param';

export interface VarDecl {
  readonly kind: 'VarDecl';
  readonly id: number;
  readonly pos: number;
  readonly name: string;
  readonly storage: Storage;
  readonly isConst: boolean;
  readonly elem: ElemKind;
  /** Dimensions as written; for a parameter the first is null (`a[]`). Empty for scalars. */
  readonly dimExprs: (Expr | null)[];
  /** The initializer as written. */
  readonly init: Expr | InitList | null;
  /** int/float, ArrayType, or PointerType for array parameters (set by analysis). */
  type: Type;
  /** Flattened, converted initializer (set by analysis; null if none). */
  initializer: ResolvedInit | null;
  /** Value of a const scalar. */
  constValue: number | undefined;
}

export interface FuncDecl {
  readonly kind: 'FuncDecl';
  readonly id: number;
  readonly pos: number;
  readonly name: string;
  readonly returnType: IntType | FloatType | VoidType;
  readonly params: VarDecl[];
  /** Null for a prototype and for runtime functions. */
  readonly body: Block | null;
  /** One of the predeclared SysY runtime functions (sylib). */
  readonly isRuntime: boolean;
  /** Symbol to call: the name, or `_sysy_starttime`/`_sysy_stoptime`. */
  readonly linkName: string;
  /** Pass the call's source line as an extra trailing `i32` argument. */
  readonly lineArgument: boolean;
  /** `putf(fmt, ...)`. */
  readonly isVariadic: boolean;
  /** The defining FuncDecl of this function (itself for a definition), if any. */
  definition: FuncDecl | null;
  /** Called somewhere in the program. */
  used: boolean;
}

export type Decl = VarDecl | FuncDecl;

// ---------------------------------------------------------------- statements

/** `const int a = 1, b[2] = {1, 2};` — one or more VarDecls. */
export interface DeclStmt {
  readonly kind: 'DeclStmt';
  readonly pos: number;
  readonly decls: VarDecl[];
}

export interface Block {
  readonly kind: 'Block';
  readonly pos: number;
  readonly items: (Stmt | DeclStmt)[];
}

export interface Assign {
  readonly kind: 'Assign';
  /** Position of '='. */
  readonly pos: number;
  readonly target: LVal;
  value: Expr;
}

export interface ExprStmt {
  readonly kind: 'ExprStmt';
  readonly pos: number;
  expr: Expr;
}

export interface Empty {
  readonly kind: 'Empty';
  readonly pos: number;
}

export interface If {
  readonly kind: 'If';
  readonly pos: number;
  cond: Expr;
  readonly then: Stmt;
  readonly else: Stmt | null;
}

export interface While {
  readonly kind: 'While';
  readonly pos: number;
  cond: Expr;
  readonly body: Stmt;
}

export interface Break {
  readonly kind: 'Break';
  readonly pos: number;
  loop: While | null;
}

export interface Continue {
  readonly kind: 'Continue';
  readonly pos: number;
  loop: While | null;
}

export interface Return {
  readonly kind: 'Return';
  readonly pos: number;
  value: Expr | null;
  func: FuncDecl | null;
}

export type Stmt = Block | Assign | ExprStmt | Empty | If | While | Break | Continue | Return;

export interface Program {
  readonly kind: 'Program';
  readonly source: SourceFile;
  /** Global DeclStmts and FuncDecls in source order. */
  readonly items: (DeclStmt | FuncDecl)[];
  /** Filled by analysis: global variables in order. */
  globals: VarDecl[];
  /** Filled by analysis: function definitions (with body) in order. */
  functions: FuncDecl[];
  /** Filled by analysis: the predeclared runtime functions (see `used`). */
  runtime: FuncDecl[];
  /** All declaration ids are below this. */
  declCount: number;
}

export type Node = Program | DeclStmt | VarDecl | FuncDecl | Stmt | Expr | InitList;

// ---------------------------------------------------------------- helpers

/** Offset of the first character of an expression (iterative: follows left operands). */
export function exprStart(e: Expr): number {
  let cur: Expr = e;
  for (;;) {
    if (cur.kind === 'Binary' || cur.kind === 'Logical') cur = cur.lhs;
    else if (cur.kind === 'Convert') cur = cur.operand;
    else return cur.pos;
  }
}

/**
 * The children of a node in source order (expressions, statements,
 * declarations, initializer items). Does not recurse: drive it with a stack.
 */
export function childrenOf(n: Node): Node[] {
  switch (n.kind) {
    case 'Program':
      return n.items;
    case 'DeclStmt':
      return n.decls;
    case 'VarDecl': {
      const out: Node[] = [];
      for (const d of n.dimExprs) if (d) out.push(d);
      if (n.init) out.push(n.init);
      return out;
    }
    case 'FuncDecl': {
      const out: Node[] = [...n.params];
      if (n.body) out.push(n.body);
      return out;
    }
    case 'Block':
      return n.items;
    case 'Assign':
      return [n.target, n.value];
    case 'ExprStmt':
      return [n.expr];
    case 'If':
      return n.else ? [n.cond, n.then, n.else] : [n.cond, n.then];
    case 'While':
      return [n.cond, n.body];
    case 'Return':
      return n.value ? [n.value] : [];
    case 'LVal':
      return n.indices;
    case 'Call':
      return n.args;
    case 'Unary':
      return [n.operand];
    case 'Binary':
    case 'Logical':
      return [n.lhs, n.rhs];
    case 'Convert':
      return [n.operand];
    case 'InitList':
      return n.items;
    default:
      return [];
  }
}
