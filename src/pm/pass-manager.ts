/**
 * The pass manager: runs a pipeline of module and function passes over a module, caches
 * analyses per function and drops them when a pass does not preserve them, and offers
 * the instrumentation `opt` users expect: --verify-each (naming the pass that broke the
 * IR), --print-after-all, --print-changed (as a diff), --time-passes, --stats and
 * --opt-bisect-limit. After LLVM's new pass manager (PassManager.h, PassInstrumentation).
 *
 * Invariants: an analysis result handed to a pass was computed on the function as it is
 * now (a pass that changes a function returns what it preserved, and everything else is
 * dropped before the next pass); passes never see a function the verifier rejected when
 * verify-each is on.
 */
import { invalidateGlobalEscapes, invalidateGlobalEscapesIn } from '../analysis/global-escape.js';
import { writeDiagnostics } from '../platform/index.js';
import type { Function } from '../ir/function.js';
import type { Module } from '../ir/module.js';
import { printModule } from '../text/printer.js';
import { functionSnapshot, sameSnapshot } from '../text/function-snapshot.js';
import type { Analysis, FunctionAnalysisManagerLike, FunctionPass, ModulePass, Pass, PassContext, Preserved } from './pass.js';
import { printsIR, StandardInstrumentations, unitName, type AnalysisObserver, type PrintOptions } from './instrumentation.js';
import { assert } from '../util/assert.js';

export class FunctionAnalysisManager implements FunctionAnalysisManagerLike {
  private cache = new Map<Analysis<unknown>, unknown>();
  /** Computations per analysis, for tests and --stats. */
  computed = 0;

  constructor(
    readonly fn: Function,
    private readonly observer: AnalysisObserver | null = null,
  ) {}

  get<T>(a: Analysis<T>): T {
    const c = this.cache.get(a as Analysis<unknown>);
    if (c !== undefined) return c as T;
    this.observer?.computed(a.name, this.fn);
    const r = a.compute(this.fn, this);
    this.cache.set(a as Analysis<unknown>, r);
    this.computed++;
    return r;
  }

  /**
   * Caches a result computed elsewhere on the function as it is now (the input verifier's
   * CFG and dominator tree, see streaming.ts), as if `get` had computed it.
   */
  seed<T>(a: Analysis<T>, r: T): void {
    this.cache.set(a as Analysis<unknown>, r);
  }

  /** Returns a cached result without computing. */
  cached<T>(a: Analysis<T>): T | undefined {
    return this.cache.get(a as Analysis<unknown>) as T | undefined;
  }

  invalidate(preserved: Preserved): void {
    if (preserved === 'all') return;
    for (const a of [...this.cache.keys()]) {
      if (preserved === 'none' || !a.cfgOnly) {
        this.observer?.invalidated(a.name, this.fn);
        this.cache.delete(a);
      }
    }
  }
}

/**
 * What to do around pass executions. The printing options (print-before/after, print-changed,
 * filter-print-funcs, debug-pass-manager) are opt's standard instrumentation, implemented in
 * instrumentation.ts.
 */
export interface Instrumentation extends PrintOptions {
  /** Run the verifier after every pass; on failure throw naming the pass. */
  verifyEach?: boolean;
  /** Collect per-pass wall time. */
  timePasses?: boolean;
  /** Run only the first N pass executions (opt's -opt-bisect-limit); -1 = no limit. */
  bisectLimit?: number;
  /** Where instrumentation output goes (default: stderr). */
  log?: (text: string) => void;
  /**
   * Called after every pass execution (a function pass on one function, or a module pass),
   * with its wall time: the playground's pipeline view snapshots the IR here.
   */
  afterPass?: ((e: PassExecution) => void) | null;
  /** Trace lines from passes that can explain themselves. */
  trace?: ((line: string) => void) | null;
  /**
   * The verifier to use (injected so the pass manager does not depend on it). After a
   * function pass only that function is checked (`fn` given), keeping verify-each linear.
   */
  verify?: (m: Module, fn?: Function) => string[];
}

/** One pass execution, as reported to `Instrumentation.afterPass`. */
export interface PassExecution {
  pass: string;
  /** The function it ran on; undefined for a module pass. */
  fn?: Function;
  changed: boolean;
  ms: number;
}

export interface PassTiming {
  pass: string;
  runs: number;
  ms: number;
}

export class VerifyEachError extends Error {
  constructor(
    readonly pass: string,
    readonly problems: string[],
    readonly ir: string,
  ) {
    super(`the IR is broken after pass '${pass}':\n  ${problems.slice(0, 20).join('\n  ')}${problems.length > 20 ? `\n  … and ${problems.length - 20} more` : ''}`);
    this.name = 'VerifyEachError';
  }
}

/** A node of a parsed pipeline. */
export type PipelineNode =
  /** `spec`: how the pipeline spelled the pass (name and `<params>`), for --print-pipeline-passes. */
  | { pass: Pass; spec?: string }
  | { repeat: number; body: PipelineNode[] }
  | { fixpoint: number; body: PipelineNode[] };

export class PassManager {
  private fams = new Map<Function, FunctionAnalysisManager>();
  private executions = 0;
  readonly stats = new Map<string, Map<string, number>>();
  readonly timings = new Map<string, PassTiming>();
  private readonly log: (text: string) => void;
  private readonly si: StandardInstrumentations | null;

  constructor(
    readonly module: Module,
    readonly opts: Instrumentation = {},
  ) {
    this.log = opts.log ?? writeDiagnostics;
    this.si = printsIR(opts) ? new StandardInstrumentations(opts, this.log) : null;
  }

  analysesOf(fn: Function): FunctionAnalysisManager {
    let f = this.fams.get(fn);
    if (f === undefined) this.fams.set(fn, (f = new FunctionAnalysisManager(fn, this.si?.analyses ?? null)));
    return f;
  }

  private stat(pass: string, counter: string, n: number): void {
    let m = this.stats.get(pass);
    if (m === undefined) this.stats.set(pass, (m = new Map()));
    m.set(counter, (m.get(counter) ?? 0) + n);
  }

  /** Runs a pipeline; returns whether anything changed. */
  run(pipeline: PipelineNode[]): boolean {
    let changed = false;
    for (const node of pipeline) changed = this.runNode(node) || changed;
    return changed;
  }

  /**
   * Runs a pipeline of function passes on one function only, then drops the function's
   * cached analyses (streaming.ts calls this for each function as it is read). A fixpoint
   * repeats its body on this function until a round changes nothing in it.
   */
  runOnFunction(pipeline: readonly PipelineNode[], fn: Function): boolean {
    const changed = this.runNodesOn(pipeline, fn);
    this.fams.delete(fn);
    return changed;
  }

  private runNodesOn(pipeline: readonly PipelineNode[], fn: Function): boolean {
    let changed = false;
    for (const node of pipeline) {
      if ('pass' in node) {
        assert(node.pass.kind === 'function', `runOnFunction: '${node.pass.name}' is a module pass`);
        changed = this.runFunctionPass(node.pass, fn) || changed;
      } else if ('repeat' in node) {
        for (let k = 0; k < node.repeat; k++) changed = this.runNodesOn(node.body, fn) || changed;
      } else {
        // as runFunctionFixpoint: a round that ends where it began is a fixpoint too
        let start = functionSnapshot(fn);
        for (let k = 0; k < node.fixpoint; k++) {
          if (!this.runNodesOn(node.body, fn)) break;
          changed = true;
          const end = functionSnapshot(fn);
          if (sameSnapshot(end, start)) break;
          start = end;
        }
      }
    }
    return changed;
  }

  private runNode(node: PipelineNode): boolean {
    if ('pass' in node) return node.pass.kind === 'module' ? this.runModulePass(node.pass) : this.runFunctionPassOverModule(node.pass);
    if ('repeat' in node) {
      let changed = false;
      for (let k = 0; k < node.repeat; k++) changed = this.run(node.body) || changed;
      return changed;
    }
    // fixpoint: iterate until nothing changes (bounded)
    const fnPasses = functionPassesOnly(node.body);
    if (fnPasses !== null) return this.runFunctionFixpoint(fnPasses, node.fixpoint);
    const mixed = functionThenModulePasses(node.body);
    if (mixed !== null) return this.runMixedFixpoint(mixed.fn, mixed.module, node.fixpoint);
    let changed = false;
    for (let k = 0; k < node.fixpoint; k++) {
      if (!this.run(node.body)) break;
      changed = true;
    }
    return changed;
  }

  /** Whether the next pass execution is allowed by --opt-bisect-limit. */
  private admit(passName: string, fn: Function | undefined): boolean {
    const limit = this.opts.bisectLimit ?? -1;
    const n = ++this.executions;
    if (limit < 0) return true;
    const run = n <= limit;
    this.log(`BISECT: ${run ? 'running' : 'NOT running'} pass (${n}) ${passName} on ${unitName(fn)}\n`);
    return run;
  }

  /**
   * A fixpoint of function passes runs function by function, as LLVM's function pipelines
   * do: each function repeats the sequence until a round changes nothing in it, so one
   * function still changing does not make every other function run again.
   */
  /**
   * A fixpoint of function passes followed by module passes (the inliner), as LLVM's CGSCC
   * pipeline revisits: every function runs the function passes to its own fixpoint, then the
   * module passes run; the next round simplifies again only the functions they changed, and
   * the rounds stop when the module passes change nothing.
   */
  private runMixedFixpoint(fnPasses: FunctionPass[], modPasses: ModulePass[], rounds: number): boolean {
    let changed = false;
    let dirty: Set<Function> | null = null;
    for (let k = 0; k < rounds; k++) {
      if (this.runFunctionFixpoint(fnPasses, rounds, dirty)) changed = true;
      const touched = new Set<Function>();
      let c = false;
      for (const p of modPasses) {
        this.touched = touched;
        try {
          if (this.runModulePass(p)) c = true;
        } finally {
          this.touched = null;
        }
      }
      if (!c) break;
      changed = true;
      // a module pass that changed something without naming the functions: all of them
      dirty = touched.size > 0 ? touched : null;
    }
    return changed;
  }

  /** Functions a running module pass reported changed (runMixedFixpoint), or null. */
  private touched: Set<Function> | null = null;

  private runFunctionFixpoint(passes: FunctionPass[], rounds: number, only: Set<Function> | null = null): boolean {
    let changed = false;
    const skip = this.canSkipUnchanged();
    for (const fn of [...this.module.functions]) {
      if (fn.isDeclaration() || (only !== null && !only.has(fn))) continue;
      // Skipping passes that cannot find anything: `version` counts the changes made to
      // fn in this fixpoint; cleanAt[j] is the version at which pass j last ran and changed
      // nothing. Passes are deterministic functions of the function they are given, so
      // while the version stays there, running pass j again would change nothing again.
      let version = 0;
      const cleanAt = new Int32Array(passes.length).fill(-1);
      // A round whose passes undo each other (loop-simplify adds a preheader, simplifycfg
      // folds it away again) ends where it began: the next round would do the same again,
      // so that is a fixpoint too. The text of the function at the start of the round says
      // (compared as snapshots: function-snapshot.ts, equal exactly when the texts are).
      let start = functionSnapshot(fn);
      for (let k = 0; k < rounds; k++) {
        let c = false;
        for (let j = 0; j < passes.length; j++) {
          if (fn.parent !== this.module) break; // deleted by a pass
          if (skip && cleanAt[j] === version) continue;
          if (this.runFunctionPass(passes[j], fn)) {
            version++;
            c = true;
          } else cleanAt[j] = version;
        }
        if (!c) break;
        changed = true;
        if (fn.parent !== this.module) break;
        const end = functionSnapshot(fn);
        if (sameSnapshot(end, start)) break;
        start = end;
      }
    }
    return changed;
  }

  /**
   * Whether a fixpoint may skip a pass that found nothing on the same IR before: not when
   * the instrumentation shows or counts every execution (print-before/after, opt-bisect-limit).
   */
  private canSkipUnchanged(): boolean {
    return !(this.si?.showsEveryExecution ?? false) && (this.opts.bisectLimit ?? -1) < 0;
  }

  private runFunctionPassOverModule(pass: FunctionPass): boolean {
    let changed = false;
    for (const fn of [...this.module.functions]) {
      if (fn.isDeclaration()) continue;
      changed = this.runFunctionPass(pass, fn) || changed;
    }
    return changed;
  }

  runFunctionPass(pass: FunctionPass, fn: Function): boolean {
    if (!this.admit(pass.name, fn)) return false;
    this.si?.beforePass(pass.name, this.module, fn);
    const fam = this.analysesOf(fn);
    const ctx: PassContext = {
      stat: (c, n = 1) => this.stat(pass.name, c, n),
      analyses: fam,
      trace: this.opts.trace ?? null,
    };
    const timed = this.opts.timePasses || this.opts.afterPass;
    const t0 = timed ? performance.now() : 0;
    const r = pass.run(fn, ctx);
    const ms = timed ? performance.now() - t0 : 0;
    if (this.opts.timePasses) this.time(pass.name, ms);
    const preserved: Preserved = r.preserved ?? (r.changed ? 'none' : 'all');
    fam.invalidate(r.changed ? preserved : 'all');
    // the globals fn takes the address of may be fewer now (dead code gone): rescan fn's share when next asked
    if (r.changed) invalidateGlobalEscapesIn(fn);
    this.after(pass.name, r.changed, fn);
    this.opts.afterPass?.({ pass: pass.name, fn, changed: r.changed, ms });
    return r.changed;
  }

  private runModulePass(pass: ModulePass): boolean {
    if (!this.admit(pass.name, undefined)) return false;
    this.si?.beforePass(pass.name, this.module, undefined);
    // module passes change which globals exist and how they are used: rescan when next asked
    invalidateGlobalEscapes(this.module);
    const timed = this.opts.timePasses || this.opts.afterPass;
    const t0 = timed ? performance.now() : 0;
    const r = pass.run(this.module, {
      stat: (c, n = 1) => this.stat(pass.name, c, n),
      analysesOf: (fn) => this.analysesOf(fn),
      invalidate: (fn, p = 'none') => {
        this.touched?.add(fn);
        this.analysesOf(fn).invalidate(p);
      },
      trace: this.opts.trace ?? null,
    });
    const ms = timed ? performance.now() - t0 : 0;
    if (this.opts.timePasses) this.time(pass.name, ms);
    if (r.changed) {
      const p = r.preserved ?? 'none';
      for (const f of this.fams.values()) f.invalidate(p);
      // functions removed by the pass
      for (const fn of [...this.fams.keys()]) if (fn.parent !== this.module) this.fams.delete(fn);
    }
    this.after(pass.name, r.changed, undefined);
    this.opts.afterPass?.({ pass: pass.name, changed: r.changed, ms });
    return r.changed;
  }

  private time(name: string, ms: number, runs = 1): void {
    let t = this.timings.get(name);
    if (t === undefined) this.timings.set(name, (t = { pass: name, runs: 0, ms: 0 }));
    t.runs += runs;
    t.ms += ms;
  }

  private after(name: string, changed: boolean, fn: Function | undefined): void {
    this.si?.afterPass(name, this.module, fn, changed);
    if (this.opts.verifyEach && this.opts.verify) {
      const problems = this.opts.verify(this.module, fn);
      if (problems.length > 0) throw new VerifyEachError(name, problems, printModule(this.module));
    }
  }

  /** Adds counters and timings gathered by another manager (another thread's share of the functions). */
  addCounters(stats: readonly [string, string, number][], timings: readonly PassTiming[]): void {
    for (const [pass, counter, n] of stats) this.stat(pass, counter, n);
    for (const t of timings) this.time(t.pass, t.ms, t.runs);
  }

  /** The counters as [pass, counter, value] rows (see addCounters). */
  counterRows(): [string, string, number][] {
    const rows: [string, string, number][] = [];
    for (const [pass, m] of this.stats) for (const [c, n] of m) rows.push([pass, c, n]);
    return rows;
  }

  /** `--time-passes` table. */
  timingReport(): string {
    const rows = [...this.timings.values()].sort((a, b) => b.ms - a.ms);
    const total = rows.reduce((s, r) => s + r.ms, 0);
    const lines = ['===-------------------------------------------------------------------------===', '                          Pass execution timing report', '===-------------------------------------------------------------------------===', `  Total Execution Time: ${(total / 1000).toFixed(4)} seconds`, '', '   Wall Time (ms)    %     Runs  Name'];
    for (const r of rows) {
      lines.push(`  ${r.ms.toFixed(3).padStart(12)}  ${(total > 0 ? (100 * r.ms) / total : 0).toFixed(1).padStart(5)}%  ${String(r.runs).padStart(6)}  ${r.pass}`);
    }
    lines.push(`  ${total.toFixed(3).padStart(12)}  100.0%          Total`);
    return lines.join('\n') + '\n';
  }

  /** `--stats` report, like LLVM's: value, pass, counter. */
  statsReport(): string {
    const lines = ['===-------------------------------------------------------------------------===', '                          ... Statistics Collected ...', '===-------------------------------------------------------------------------===', ''];
    const rows = this.counterRows();
    rows.sort((a, b) => (a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0])));
    for (const [pass, c, n] of rows) lines.push(`${String(n).padStart(8)} ${pass.padEnd(20)} - ${c}`);
    return lines.join('\n') + '\n';
  }
}

/** The passes of a flat body of function passes, or null when it holds anything else. */
function functionPassesOnly(body: PipelineNode[]): FunctionPass[] | null {
  const out: FunctionPass[] = [];
  for (const n of body) {
    if (!('pass' in n) || n.pass.kind !== 'function') return null;
    out.push(n.pass);
  }
  return out;
}

/** A body of function passes then module passes (at least one of each), or null. */
function functionThenModulePasses(body: PipelineNode[]): { fn: FunctionPass[]; module: ModulePass[] } | null {
  const fn: FunctionPass[] = [];
  const module: ModulePass[] = [];
  for (const n of body) {
    if (!('pass' in n)) return null;
    if (n.pass.kind === 'function') {
      if (module.length > 0) return null;
      fn.push(n.pass);
    } else module.push(n.pass);
  }
  return fn.length > 0 && module.length > 0 ? { fn, module } : null;
}
