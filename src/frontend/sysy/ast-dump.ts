/**
 * `dumpAst`: the tree as indented text, one node per line, for
 * `ssakit compile --emit=ast` and for tests. Iterative (explicit stack).
 *
 *   FuncDecl main 'int()' #15 <1:5>
 *     Block <1:12>
 *       DeclStmt <2:3>
 *         VarDecl a #0 local 'int[2][2]' <2:7>
 *           init: array of 4, 2 listed
 *             [0] IntLiteral 1 'int' =1 <2:20>
 *
 * After analysis each expression shows its type in quotes and, when
 * constant, `=value`; LVals show the id of their declaration (`->#3`).
 * Parse-only trees show the initializer as written instead. Levels deeper
 * than 60 are indented by 60 and prefixed with their depth, `[61] `.
 */

import { type Expr, type InitList, type Node, type Program, typeToString } from './ast.js';

const MAX_INDENT = 60;

interface Item {
  node: Node | string;
  depth: number;
  label: string;
}

function fmtNum(v: number, isFloat: boolean): string {
  if (!isFloat) return String(v);
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return v.toFixed(1);
  return String(v);
}

function exprSuffix(e: Expr): string {
  let s = '';
  if (e.type.kind !== 'error') s += ` '${typeToString(e.type)}'`;
  if (e.constValue !== undefined) s += ` =${fmtNum(e.constValue, e.type.kind === 'float' || e.type.kind === 'double')}`;
  return s;
}

export function dumpAst(program: Program): string {
  const src = program.source;
  const at = (pos: number): string => {
    const l = src.loc(pos);
    return ` <${l.line}:${l.col}>`;
  };
  const out: string[] = [];
  const stack: Item[] = [{ node: program, depth: 0, label: '' }];
  while (stack.length > 0) {
    const { node, depth, label } = stack.pop()!;
    // Past MAX_INDENT levels the depth is written as a number, so that the
    // dump of a very deep tree stays linear in size.
    const pad = (depth <= MAX_INDENT ? '  '.repeat(depth) : `${'  '.repeat(MAX_INDENT)}[${depth}] `) + label;
    if (typeof node === 'string') {
      out.push(pad + node);
      continue;
    }
    const kids: Item[] = [];
    const child = (n: Node | string | null, lbl = ''): void => {
      if (n !== null) kids.push({ node: n, depth: depth + 1, label: lbl });
    };
    let line: string;
    switch (node.kind) {
      case 'Program':
        line = `Program ${src.name}`;
        for (const it of node.items) child(it);
        break;
      case 'DeclStmt':
        line = 'DeclStmt' + at(node.pos);
        for (const d of node.decls) child(d);
        break;
      case 'VarDecl': {
        const t = node.type.kind === 'error' ? node.elem + node.dimExprs.map(() => '[?]').join('') : typeToString(node.type);
        line = `VarDecl ${node.name} #${node.id} ${node.storage}${node.isConst ? ' const' : ''} '${t}'`;
        if (node.constValue !== undefined) line += ` =${fmtNum(node.constValue, node.elem === 'float')}`;
        line += at(node.pos);
        if (node.type.kind === 'error') for (const d of node.dimExprs) if (d) child(d, 'dim: ');
        const r = node.initializer;
        if (r !== null && r.kind === 'scalar') {
          child(r.expr, 'init: ');
        } else if (r !== null) {
          child(`init: array of ${r.size}, ${r.entries.length} listed`);
          for (const e of r.entries) kids.push({ node: e.expr, depth: depth + 2, label: `[${e.index}] ` });
        } else if (node.init !== null && node.type.kind === 'error') {
          child(node.init, 'init: ');
        }
        break;
      }
      case 'FuncDecl': {
        const sig = `${node.returnType.kind}(${node.params.map((p) => (p.type.kind === 'error' ? p.elem : typeToString(p.type))).join(', ')})`;
        line = `FuncDecl ${node.name} '${sig}' #${node.id}${node.body ? '' : ' prototype'}` + at(node.pos);
        for (const p of node.params) child(p);
        child(node.body);
        break;
      }
      case 'Block':
        line = 'Block' + at(node.pos);
        for (const it of node.items) child(it);
        break;
      case 'Assign':
        line = 'Assign' + at(node.pos);
        child(node.target);
        child(node.value);
        break;
      case 'ExprStmt':
        line = 'ExprStmt' + at(node.pos);
        child(node.expr);
        break;
      case 'Empty':
        line = 'Empty' + at(node.pos);
        break;
      case 'If':
        line = 'If' + at(node.pos);
        child(node.cond, 'cond: ');
        child(node.then, 'then: ');
        child(node.else, 'else: ');
        break;
      case 'While':
        line = 'While' + at(node.pos);
        child(node.cond, 'cond: ');
        child(node.body, 'body: ');
        break;
      case 'Break':
      case 'Continue':
        line = node.kind + at(node.pos);
        break;
      case 'Return':
        line = 'Return' + at(node.pos);
        child(node.value);
        break;
      case 'IntLiteral':
      case 'FloatLiteral':
        line = `${node.kind} ${fmtNum(node.value, node.kind === 'FloatLiteral')}` + exprSuffix(node) + at(node.pos);
        break;
      case 'StringLiteral':
        line = `StringLiteral ${JSON.stringify(node.value)}` + at(node.pos);
        break;
      case 'LVal':
        line = `LVal ${node.name}${node.decl ? ` ->#${node.decl.id}` : ''} ${node.access}` + exprSuffix(node) + at(node.pos);
        for (const ix of node.indices) child(ix, 'index: ');
        break;
      case 'Call': {
        const c = node.callee;
        line = `Call ${node.name}${c ? ` ->#${c.id}` : ''}${c && c.lineArgument ? ` (lowered to ${c.linkName}(${node.line}))` : ''}` + exprSuffix(node) + at(node.pos);
        for (const a of node.args) child(a);
        break;
      }
      case 'Unary':
        line = `Unary ${node.op}` + exprSuffix(node) + at(node.pos);
        child(node.operand);
        break;
      case 'Binary':
      case 'Logical':
        line = `${node.kind} ${node.op}` + exprSuffix(node) + at(node.pos);
        child(node.lhs);
        child(node.rhs);
        break;
      case 'Convert':
        line = `Convert ${node.op}` + exprSuffix(node);
        child(node.operand);
        break;
      case 'InitList':
        line = `InitList` + at(node.pos);
        for (const it of (node as InitList).items) child(it);
        break;
    }
    out.push(pad + line);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out.join('\n') + '\n';
}

