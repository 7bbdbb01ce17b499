/**
 * The SysY frontend's public entry points: parsing, semantic analysis, IR generation.
 *
 *   const { program, diagnostics } = analyzeSysY(text, 'prog.sy');
 *   if (diagnostics.length) process.stderr.write(formatDiagnostics(diagnostics, text));
 *
 *   const { module, diagnostics } = compileSysY(text, 'prog.sy', { ssa: 'braun', optLevel: 2 });
 *   // module is undefined iff diagnostics contain an error
 *
 * `parseSysY` reports syntax errors with panic-mode recovery (up to 20; a
 * lexical error ends the parse); `analyzeSysY` parses and, if there was no
 * syntax error, analyzes, reporting as many semantic errors as it can.
 * A program is valid iff the returned diagnostics contain no error. Only a
 * valid program's tree carries the guarantees documented in ast.ts.
 */

import type { Module } from '../../ir/module.js';
import { ensureRegistered, runPipeline } from '../../passes/index.js';
import { pipelineNames } from '../../pm/registry.js';
import type { Program } from './ast.js';
import { DiagnosticBag, SourceFile, SysYError, type Diagnostic } from './diagnostics.js';
import { generateIR, type IRGenOptions, type IRGenStats } from './irgen.js';
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

export interface CompileSysYOptions extends IRGenOptions {
  /**
   * 0 (default): IR as generated; 1 / 2: then the standard pipeline `default<O1>` /
   * `default<O2>` (src/passes/pipelines.ts).
   */
  optLevel?: number;
  /** Promote alloca-mode output with `mem2reg` (what O1/O2 do first anyway). */
  mem2reg?: boolean;
}

export interface CompileSysYResult {
  /** The module; undefined iff `diagnostics` contain an error. */
  module?: Module;
  diagnostics: Diagnostic[];
  /** The annotated tree (partial when there were errors). */
  ast: Program;
  /** What IR generation did (phis made and removed, values folded, CSE hits). */
  stats?: IRGenStats;
}

/** Parses, checks and lowers a SysY program to IR (see irgen.ts for the two SSA modes). */
export function compileSysY(source: string, fileName = '<input>', opts: CompileSysYOptions = {}): CompileSysYResult {
  const r = analyzeSysY(source, fileName);
  if (r.diagnostics.some((d) => d.severity === 'error')) return { diagnostics: r.diagnostics, ast: r.ast };
  const stats = {} as IRGenStats;
  const module = generateIR(r.ast, opts, stats);
  const level = opts.optLevel ?? 0;
  if (level > 0) runPipeline(module, `default<O${standardLevel(level)}>`);
  else if (opts.mem2reg && (opts.ssa ?? 'braun') === 'alloca') runPipeline(module, 'mem2reg');
  return { module, diagnostics: r.diagnostics, ast: r.ast, stats };
}

/** The highest standard pipeline ≤ `level` that exists (O2 falls back to O1 until it is defined). */
function standardLevel(level: number): number {
  ensureRegistered();
  const names = new Set(pipelineNames());
  for (let k = Math.min(level, 2); k > 1; k--) if (names.has(`O${k}`)) return k;
  return 1;
}

export { generateIR, type IRGenOptions, type IRGenStats, type SSAMode } from './irgen.js';
export * from './ast.js';
export { dumpAst } from './ast-dump.js';
export { DiagnosticBag, SourceFile, SysYError, formatDiagnostic, formatDiagnostics } from './diagnostics.js';
export type { Diagnostic, Severity, SourceLoc } from './diagnostics.js';
export { Lexer, Tok, tokenize, tokName, type Token } from './lexer.js';
export { flattenInitializer, type InitSink } from './initializer.js';
export { walkDeep, type DeepVisitor } from './walk.js';
