/** Messages between the page (main.ts) and the compiler worker (worker.ts). */

export type Lang = 'sysy' | 'llvm';
export type SsaMode = 'braun' | 'alloca';
export type GraphKind = 'cfg' | 'domtree' | 'postdomtree' | 'df' | 'loops';
/** 'pass': the trace lines the selected pipeline step's own pass emitted (gvn, early-cse, lvn, loop passes). */
/**
 * The stepper's algorithms: the page's own views of three traces, the selected step's pass,
 * and `trace:NAME` for every structured trace of the library (src/passes/traces.ts).
 */
export type Algorithm = 'df-runner' | 'df-cytron' | 'idf' | 'mem2reg' | 'pass' | `trace:${string}`;

export interface SourceDiag {
  line: number;
  col: number;
  message: string;
}

/** One pass execution: what it ran on, whether it changed the IR, its counters and time. */
export interface PipelineStep {
  pass: string;
  /** Function name, or '' for a module pass. */
  fn: string;
  changed: boolean;
  ms: number;
  stats: [string, number][];
  /** How many trace lines the pass emitted (the stepper shows them). */
  traceLines: number;
}

export interface CompileRequest {
  kind: 'compile';
  source: string;
  lang: Lang;
  ssa: SsaMode;
  pipeline: string;
  /**
   * The step the page showed for the previous edit (its index, pass and function): when the
   * new pipeline's last changed step is that one again, the worker prints its IR before while
   * compiling instead of replaying the pipeline for it (session.ts).
   */
  hint?: { step: number; pass: string; fn: string };
}
export interface CompileReply {
  kind: 'compile';
  errors: SourceDiag[];
  /** Text of the pipeline error (a custom pipeline that does not parse). */
  pipelineError?: string;
  final: string;
  steps: PipelineStep[];
  /** Every function with a body at some step (the start's in order, then those a pass added). */
  functions: string[];
  ms: number;
  /**
   * Where the worker's time went (ms): the frontend or parser, the passes, recording each
   * step (counters, the hinted step's IR), the pass manager around the passes, printing the
   * final module, the shown step's IR (a replay when the hint missed); and the replays so far.
   */
  timing?: { frontend: number; passes: number; record: number; manager: number; final: number; shown: number; replays: number };
  /** The IR before and after the step the page shows first (the last that changed the IR); null when no step ran. */
  shown: StepView | null;
}

/** The IR a step ran on (its function, or the module for a module pass), before and after it. */
export interface StepTexts {
  step: number;
  before: string;
  after: string;
}
/** A step's texts as the page gets them: with their line diff, [equal, deleted, inserted, ...] (step-diff.ts), which the page draws (diff-view.ts). */
export interface StepView extends StepTexts {
  chunks: number[];
}
export interface StepRequest {
  kind: 'step';
  step: number;
}
export interface StepReply extends StepView {
  kind: 'step';
}

/** Step -1: the IR before the pipeline; k: after step k. */
export interface GraphRequest {
  kind: 'graph';
  step: number;
  fn: string;
  graph: GraphKind;
}
export interface GraphReply {
  kind: 'graph';
  /** The graph in Graphviz's language (the page has it laid out by graph-worker.ts). */
  dot: string;
  /** DOT node name (b<id>) to block name. */
  blocks: Record<string, string>;
  blockCount: number;
  /** The function's IR at that step, and its block names in layout order. */
  ir: string;
  order: string[];
  /** The step and function drawn (the function asked for, or @main when it has no body there). */
  step: number;
  fn: string;
}

/** An algorithm's trace as a list of events; each names the blocks it is about. */
export interface TraceEvent {
  text: string;
  blocks: string[];
}
export interface TraceRequest {
  kind: 'trace';
  algorithm: Algorithm;
  step: number;
  fn: string;
}
export interface TraceReply {
  kind: 'trace';
  events: TraceEvent[];
  error?: string;
}

export interface RunRequest {
  kind: 'run';
  stdin: string;
  maxSteps?: number;
}
export interface RunSide {
  stdout: string;
  exitCode: number;
  steps: number;
  byOpcode: Record<string, number>;
  error?: string;
}
export interface RunReply {
  kind: 'run';
  before: RunSide;
  after: RunSide;
}

export interface PassListRequest {
  kind: 'passes';
}
export interface PassListReply {
  kind: 'passes';
  passes: { name: string; description: string }[];
  pipelines: Record<string, string>;
  /** The library's structured traces (`trace:NAME` in a TraceRequest). */
  traces: { name: string; description: string }[];
}

export type Request = CompileRequest | StepRequest | GraphRequest | TraceRequest | RunRequest | PassListRequest;
export type Reply = CompileReply | StepReply | GraphReply | TraceReply | RunReply | PassListReply;

export interface Envelope<T> {
  id: number;
  body: T;
}
export interface ErrorReply {
  kind: 'error';
  message: string;
}
