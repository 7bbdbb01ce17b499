/**
 * Pass and analysis interfaces, in the style of LLVM's new pass manager.
 *
 * A function pass transforms one function and says what it kept valid; a module pass
 * sees the whole module. Analyses are pure: computed from a function on demand, cached by
 * the FunctionAnalysisManager, and dropped when a pass does not preserve them.
 */
import type { Function } from '../ir/function.js';
import type { Module } from '../ir/module.js';

/** What a pass left valid. */
export type Preserved =
  /** Nothing changed (or the pass proves every analysis is still right). */
  | 'all'
  /** Instructions changed but no block, edge or terminator did: CFG analyses stay valid. */
  | 'cfg'
  /** Anything may have changed. */
  | 'none';

export interface PassResult {
  changed: boolean;
  /** Defaults to 'all' when unchanged and 'none' when changed. */
  preserved?: Preserved;
}

export interface PassContext {
  /** Adds to a named counter of the running pass (`--stats`). */
  stat(counter: string, n?: number): void;
  /** Analyses of the function being transformed. */
  readonly analyses: FunctionAnalysisManagerLike;
  /** Whether tracing output was requested (`--debug-pass`), for teaching views. */
  readonly trace: ((line: string) => void) | null;
}

export interface FunctionPass {
  readonly kind: 'function';
  readonly name: string;
  /**
   * The pass reads nothing outside its function but the signatures and names of the globals
   * the body references: not other bodies, not attribute groups or metadata. Pipelines of
   * such passes can run on each function as soon as it is read (src/driver/streaming.ts).
   */
  readonly local?: boolean;
  run(fn: Function, ctx: PassContext): PassResult;
}

export interface ModulePass {
  readonly kind: 'module';
  readonly name: string;
  run(m: Module, ctx: ModulePassContext): PassResult;
}

export interface ModulePassContext {
  stat(counter: string, n?: number): void;
  /** Analyses of any function of the module. */
  analysesOf(fn: Function): FunctionAnalysisManagerLike;
  /** Tells the manager that `fn` changed (so its cached analyses are dropped). */
  invalidate(fn: Function, preserved?: Preserved): void;
  readonly trace: ((line: string) => void) | null;
}

export type Pass = FunctionPass | ModulePass;

/** An analysis: a pure function of a function (and other analyses). */
export interface Analysis<T> {
  readonly name: string;
  /** True when the result depends only on blocks and edges (kept under 'cfg'). */
  readonly cfgOnly: boolean;
  compute(fn: Function, am: FunctionAnalysisManagerLike): T;
}

export interface FunctionAnalysisManagerLike {
  get<T>(a: Analysis<T>): T;
}
