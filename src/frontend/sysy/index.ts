/**
 * The SysY frontend's public entry points (parsing and semantic analysis;
 * IR generation lives beside it).
 *
 *   const { program, diagnostics } = analyzeSysY(text, 'prog.sy');
 *   if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, text));
 *
 * `parseSysY` reports syntax errors with panic-mode recovery (up to 20; a
 * lexical error ends the parse); `analyzeSysY` parses and, if there was no
 * syntax error, analyzes, reporting as many semantic errors as it can.
 * A program is valid iff the returned diagnostics contain no error. Only a
 * valid program's tree carries the guarantees documented in ast.ts.
 */

import type { Program } from './ast.js';
import { DiagnosticBag, SourceFile, SysYError, type Diagnostic } from './diagnostics.js';
import { parseProgram } from './parser.js';
import { analyzeProgram } from './sema.js';

export interface SysYResult {
  /** The tree (partial when there were syntax errors). */
  ast: Program;
  /** Errors and notes in source order of discovery; empty for a valid program. */
  diagnostics: Diagnostic[];
}

/** Syntax only: the tree as written, no names resolved, no types. */
export function parseSysY(source: string, fileName = '<input>'): SysYResult {
  const { program, diagnostics } = parseProgram(new SourceFile(source, fileName));
  return { ast: program, diagnostics };
}

/** Parse and analyze: the annotated tree of ast.ts, or diagnostics. */
export function analyzeSysY(source: string, fileName = '<input>'): SysYResult {
  const file = new SourceFile(source, fileName);
  const { program, diagnostics } = parseProgram(file);
  if (diagnostics.some((d) => d.severity === 'error')) return { ast: program, diagnostics };
  const bag = new DiagnosticBag(file);
  analyzeProgram(program, bag);
  return { ast: program, diagnostics: bag.list };
}

/** Same as analyzeSysY, under the name the task list uses. */
export const checkSysY = analyzeSysY;

/** Analyzes and returns the annotated tree, or throws a SysYError carrying the diagnostics. */
export function compileSysYToAst(source: string, fileName = '<input>'): Program {
  const r = analyzeSysY(source, fileName);
  if (r.diagnostics.some((d) => d.severity === 'error')) throw new SysYError(r.diagnostics, r.ast.source);
  return r.ast;
}

export * from './ast.js';
export { dumpAst } from './ast-dump.js';
export { DiagnosticBag, SourceFile, SysYError, formatDiagnostic, formatDiagnostics } from './diagnostics.js';
export type { Diagnostic, Severity, SourceLoc } from './diagnostics.js';
export { Lexer, Tok, tokenize, tokName, type Token } from './lexer.js';
export { flattenInitializer, type InitSink } from './initializer.js';
export { walkDeep, type DeepVisitor } from './walk.js';
