/**
 * `opt` on LLVM text: parse, verify, run a pipeline, verify, print — the whole job of
 * `ssakit opt`, in one of two ways that give the same output byte for byte.
 *
 *  - Whole module (always possible): read the module, verify it, run the pipeline over it,
 *    verify again, print it. What LLVM's `opt` does.
 *  - Streaming, function by function, when the pipeline allows it: each function is
 *    verified, optimized, verified again and printed as soon as its closing `}` has been
 *    read, and its body is then deleted. The module in memory never holds more than one
 *    body, so a large file costs a fraction of the memory (the 1M-instruction benchmark
 *    file: about 250 MB instead of 770 MB) and of the garbage collector's time. This is the
 *    idea of LLVM's lazily materialized bitcode functions, applied to a text reader.
 *
 * Streaming is used when every pass of the pipeline is a function pass marked `local`
 * (it reads nothing outside its function but the signatures of referenced globals: the
 * SSA construction and destruction passes), when no instrumentation needs the whole module
 * (verify-each dumps the module, print-after-all and print-changed log pass by pass and
 * opt-bisect-limit counts pass by pass across functions), and when the text has nothing
 * that makes one function's printed form depend on what follows it: unnamed globals
 * (`@0`, numbered module-wide) and `blockaddress` (which prints another function's block
 * numbers). Otherwise, or with `streaming: false`, the whole-module way runs.
 *
 * Invariants: both ways report the same verifier problems in the same order (module
 * order) and refuse to print when there are any; a function that fails the input check is
 * not optimized; a text error (SourceError) is thrown wherever it is, as the reader finds it.
 */
import { setFlagsFromString } from 'node:v8';
import type { Function } from '../ir/function.js';
import type { Module } from '../ir/module.js';
import { verifyFunction, verifyModule, type VerifierError } from '../analysis/verifier.js';
import type { Value } from '../ir/value.js';
import { parseModule } from '../text/parser.js';
import { functionBytePrinter, functionPrinter, printModule, printModuleBytes } from '../text/printer.js';
import type { CFG } from '../analysis/cfg.js';
import type { DominatorTree } from '../analysis/dominators.js';
import { CFGAnalysis, DominatorTreeAnalysis } from '../pm/analyses.js';
import { createPassManager, ensureRegistered } from '../passes/index.js';
import type { Instrumentation, PassManager, PipelineNode } from '../pm/pass-manager.js';
import { parsePipeline } from '../pm/pipeline-parser.js';

export interface OptimizeTextOptions {
  /** Pipeline in opt syntax ('' or absent: no passes). */
  pipeline?: string;
  /** Verify the input, and the output when passes ran (default true). */
  verify?: boolean;
  /** Produce the output text (default true). */
  print?: boolean;
  /** Process function by function when the pipeline allows it (default true). */
  streaming?: boolean;
  /**
   * Give the output as UTF-8 chunks in `outputBytes` instead of a string in `output`
   * (default false): what a caller that writes it to a file wants, as functions printed
   * while streaming are then never decoded into a string and encoded again.
   */
  printBytes?: boolean;
  /**
   * Let this call tune the V8 heap of the whole process for streaming (default false; the
   * `ssakit` command sets it): see `tuneHeapForStreaming`.
   */
  tuneHeap?: boolean;
  instrumentation?: Instrumentation;
}

export interface OptimizeTextResult {
  /** The printed module; null when not asked for (or asked for as bytes) or when verification failed. */
  output: string | null;
  /** The printed module as UTF-8 chunks to write in order, with `printBytes`; null otherwise. */
  outputBytes: Uint8Array[] | null;
  /** The pass manager that ran the pipeline (stats, timings); null without passes. */
  pm: PassManager | null;
  /** Problems of the input; when any, no pass has been run on the broken functions and nothing is printed. */
  inputProblems: VerifierError[];
  /** Problems of the optimized module (a pass broke it); nothing is printed. */
  outputProblems: VerifierError[];
  /** Whether the module was processed function by function. */
  streamed: boolean;
  /** Threads that processed functions (streaming-parallel.ts); 1 otherwise. */
  threads: number;
}

/** Parses, verifies, optimizes and prints `text` as `ssakit opt` does. */
export function optimizeText(text: string, fileName: string, opts: OptimizeTextOptions = {}): OptimizeTextResult {
  ensureRegistered();
  const nodes = parsePipeline(opts.pipeline ?? '');
  const instr = opts.instrumentation ?? {};
  const job: StreamJob = { nodes, instr, verify: opts.verify ?? true, print: opts.print ?? true, printBytes: opts.printBytes ?? false };
  if ((opts.streaming ?? true) && canStream(text, nodes, instr)) {
    if (opts.tuneHeap) tuneHeapForStreaming();
    return finishStream(streamFunctions(text, fileName, job), job);
  }

  const { verify, print } = job;
  const m = parseModule(text, fileName);
  const result = emptyResult(false);
  if (verify) result.inputProblems = verifyModule(m);
  if (result.inputProblems.length > 0) return result;
  if (nodes.length > 0) {
    result.pm = createPassManager(m, instr);
    result.pm.run(nodes);
    if (verify) result.outputProblems = verifyModule(m);
    if (result.outputProblems.length > 0) return result;
  }
  if (print) printInto(result, m, job);
  return result;
}

/** The printed module into `result.output`, or as chunks into `result.outputBytes` (printBytes). */
function printInto(result: OptimizeTextResult, m: Module, job: StreamJob, printed?: ReadonlyMap<Function, string | Uint8Array>): void {
  if (job.printBytes) result.outputBytes = printModuleBytes(m, { printed });
  else result.output = printModule(m, { printed });
}

/**
 * Turns off V8's allocation-site pretenuring for the rest of the process (a V8 flag, so
 * process-wide: only for a caller that owns the process, such as the CLI).
 *
 * Pretenuring moves an allocation site to the old space once nearly all its objects
 * survive a scavenge. It pays when the whole module stays in memory (see
 * scripts/node-flags.mjs), but while streaming, a body dies as soon as its function is
 * printed: one big function early in the file (the benchmark's `main`, 76k lines) gets the
 * Use records and operand arrays pretenured, and every later body is then allocated in the
 * old space, behind write barriers, to die there. Measured on the 1M-instruction file
 * (`ssakit opt -passes=mem2reg -S`): 5% fewer instructions executed (cachegrind), 3.50 s →
 * 3.21 s wall on two threads (best of 4).
 */
export function tuneHeapForStreaming(): void {
  if (heapTuned) return;
  heapTuned = true;
  setFlagsFromString('--no-allocation-site-pretenuring');
}
let heapTuned = false;

/** Whether `optimizeText` can process this text and pipeline function by function. */
export function canStream(text: string, nodes: readonly PipelineNode[], instr: Instrumentation = {}): boolean {
  if (instr.verifyEach || instr.printAfterAll || instr.printChanged || (instr.bisectLimit ?? -1) >= 0) return false;
  if (!allLocal(nodes)) return false;
  // Conservative text checks: a match inside a string or comment only costs the fast path.
  return !text.includes('blockaddress') && !hasNumberedGlobal(text);
}

/** Whether `@` followed by a digit occurs (indexOf is vectorized; the regex /@[0-9]/ cost 30 ms on 40 MB). */
function hasNumberedGlobal(text: string): boolean {
  for (let p = text.indexOf('@'); p >= 0; p = text.indexOf('@', p + 1)) {
    const c = text.charCodeAt(p + 1);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

function allLocal(nodes: readonly PipelineNode[]): boolean {
  for (const n of nodes) {
    if ('pass' in n) {
      if (n.pass.kind !== 'function' || n.pass.local !== true) return false;
    } else if (!allLocal(n.body)) return false;
  }
  return true;
}

function emptyResult(streamed: boolean): OptimizeTextResult {
  return { output: null, outputBytes: null, pm: null, inputProblems: [], outputProblems: [], streamed, threads: 1 };
}

/** What to do with each function. */
export interface StreamJob {
  nodes: readonly PipelineNode[];
  instr: Instrumentation;
  verify: boolean;
  print: boolean;
  /** Print functions as UTF-8 bytes (and the module as chunks) rather than strings. */
  printBytes: boolean;
}

/**
 * A share of the bodies for one of several threads: `bodies` holds, for each definition in
 * text order, the offset of its `{` and the offset just past its `}`; `take(k)` says
 * whether this thread reads definition k (asked once per definition, in text order), and
 * the other bodies are skipped.
 */
export interface BodyShare {
  bodies: Int32Array;
  take(k: number): boolean;
}

/** The share of definitions [from, to). */
export function rangeShare(bodies: Int32Array, from: number, to: number): BodyShare {
  return { bodies, take: (k) => k >= from && k < to };
}

/**
 * A share claimed one definition at a time from a counter in shared memory that every
 * thread of the job increments (Atomics): a thread that reaches definition k with no claim
 * at or after k claims the next unclaimed one, and reads k if that is k. Claims grow, and
 * when a thread claims at definition k every definition before k has been claimed already
 * (by induction over the definitions it has passed), so each definition is read by
 * exactly one thread, whatever the threads' speeds and start times.
 */
export function claimedShare(bodies: Int32Array, counter: Int32Array): BodyShare {
  let mine = -1;
  return {
    bodies,
    take(k) {
      if (mine < k) mine = Atomics.add(counter, 0, 1);
      return mine === k;
    },
  };
}

/** The body table did not match the text (odd formatting): the caller falls back to one thread. */
export class BodyTableMismatch extends Error {}

export interface StreamState {
  m: Module;
  pm: PassManager | null;
  /** Every definition, in text order (with a share, the skipped ones too). */
  definitions: Function[];
  /** With a share: the indices (into `definitions`) of the definitions this thread read. */
  taken: number[];
  printed: Map<Function, string | Uint8Array>;
  inputProblems: Map<Function, VerifierError[]>;
  outputProblems: Map<Function, VerifierError[]>;
}

/** Reads the text, processing each definition (of the share, if given) as soon as it is read. */
export function streamFunctions(text: string, fileName: string, job: StreamJob, share: BodyShare | null = null): StreamState {
  const { nodes, instr, verify, print } = job;
  // Problems are kept per function and listed in module order at the end, as verifyModule does.
  const st: StreamState = {
    m: null as unknown as Module,
    pm: null,
    definitions: [],
    taken: [],
    printed: new Map(),
    inputProblems: new Map(),
    outputProblems: new Map(),
  };
  let inputBroken = false;
  let printer: ((fn: Function) => string | Uint8Array) | null = null;
  let expectedEnd = -1;

  const onFunction = (fn: Function, isPendingGlobal: (g: Value) => boolean, bodyEnd: number): void => {
    if (share !== null) {
      if (bodyEnd !== expectedEnd) throw new BodyTableMismatch(`body of @${fn.name} ends at ${bodyEnd}, not ${expectedEnd}`);
    } else st.definitions.push(fn);
    const known: { cfg: CFG | null; dt: DominatorTree | null } = { cfg: null, dt: null };
    if (verify) {
      const errs = verifyFunction(fn, {
        isPendingGlobal,
        onValid: (cfg, dt) => {
          known.cfg = cfg;
          known.dt = dt;
        },
      });
      if (errs.length > 0) {
        st.inputProblems.set(fn, errs);
        inputBroken = true;
      }
    }
    if (!inputBroken) {
      if (nodes.length > 0) {
        st.pm ??= createPassManager(fn.parent!, instr);
        // The verifier's CFG and dominator tree are the function's as it is: no need to build them twice.
        if (known.cfg !== null && known.dt !== null) {
          const am = st.pm.analysesOf(fn);
          am.seed(CFGAnalysis, known.cfg);
          am.seed(DominatorTreeAnalysis, known.dt);
        }
        st.pm.runOnFunction(nodes, fn);
        if (verify) {
          const errs = verifyFunction(fn, { isPendingGlobal });
          if (errs.length > 0) st.outputProblems.set(fn, errs);
        }
      }
      if (print && st.outputProblems.size === 0) {
        printer ??= job.printBytes ? functionBytePrinter(fn.parent!) : functionPrinter(fn.parent!);
        st.printed.set(fn, printer(fn));
      }
    }
    fn.deleteBody();
  };
  let skipBody: ((fn: Function, brace: number) => number) | undefined;
  if (share !== null) {
    const { bodies } = share;
    skipBody = (fn, brace) => {
      const k = st.definitions.length;
      if (2 * k >= bodies.length || bodies[2 * k] !== brace) throw new BodyTableMismatch(`no body table entry for @${fn.name}`);
      st.definitions.push(fn);
      if (share.take(k)) {
        st.taken.push(k);
        expectedEnd = bodies[2 * k + 1];
        return -1;
      }
      return bodies[2 * k + 1];
    };
  }
  st.m = parseModule(text, fileName, { onFunction, skipBody });
  if (share !== null && 2 * st.definitions.length !== share.bodies.length) throw new BodyTableMismatch('the text has fewer definitions than the body table');
  return st;
}

/** The result of a stream: problems in module order, or the printed module. */
export function finishStream(st: StreamState, job: StreamJob): OptimizeTextResult {
  const m = st.m;
  const result = emptyResult(true);
  result.pm = st.pm;
  if (job.verify) {
    // Declarations were not seen by onFunction: check them now, then list everything in module order.
    const definitions = new Set(st.definitions);
    for (const f of m.functions) {
      if (!definitions.has(f)) {
        const errs = verifyFunction(f);
        if (errs.length > 0) st.inputProblems.set(f, errs);
      }
    }
    result.inputProblems = inModuleOrder(m, st.inputProblems);
    if (result.inputProblems.length > 0) return result;
    result.outputProblems = inModuleOrder(m, st.outputProblems);
    if (result.outputProblems.length > 0) return result;
  }
  if (job.print) printInto(result, m, job, st.printed);
  return result;
}

function inModuleOrder(m: Module, problems: Map<Function, VerifierError[]>): VerifierError[] {
  if (problems.size === 0) return [];
  const out: VerifierError[] = [];
  for (const f of m.functions) for (const e of problems.get(f) ?? []) out.push(e);
  return out;
}
