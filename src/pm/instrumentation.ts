/**
 * opt's standard instrumentation (LLVM's StandardInstrumentations.cpp), as callbacks the pass
 * manager invokes around every pass execution:
 *
 *   -print-before=P / -print-after=P / -print-before-all / -print-after-all
 *       `; *** IR Dump After P on f ***` and the function (or `on [module]` and the module)
 *   -filter-print-funcs=F  only those functions' dumps (all of the above and print-changed)
 *   -filter-passes=P       print-changed reports only those passes (`… filtered out` for others)
 *   -print-module-scope    the whole module in every dump
 *   --print-changed[=quiet|diff|diff-quiet|cdiff|cdiff-quiet]
 *       `*** IR Dump At Start ***`, then after each pass the IR it changed (or, in the diff
 *       modes, standard unified hunks of it, made by the `diff` library; cdiff colours them as
 *       opt does), `… omitted because no change` for the others; the quiet modes print
 *       only the changes
 *   -debug-pass-manager    `Running pass: P on f (N instructions)`, `Running analysis: A on f`,
 *       `Invalidating analysis: A on f`
 *
 * Banners are opt-19's byte for byte but for the pass name: ssakit names a pass by its
 * pipeline name (`mem2reg`), where opt prints its C++ class (`PromotePass`). opt's lines for
 * its pass-manager adaptors (`*** IR Pass PassManager<Function> on f ignored ***`) have no
 * counterpart: ssakit's pipelines have no adaptor passes.
 */
import { structuredPatch } from 'diff';
import type { Function } from '../ir/function.js';
import type { Module } from '../ir/module.js';
import { printFunction, printModule } from '../text/printer.js';

export const PRINT_CHANGED_MODES = ['changed', 'quiet', 'diff', 'diff-quiet', 'cdiff', 'cdiff-quiet'] as const;
/** `--print-changed`'s modes; 'changed' is the bare flag (the whole IR of each change). */
export type PrintChangedMode = (typeof PRINT_CHANGED_MODES)[number];

export interface PrintOptions {
  /** Pass names (pipeline spelling) to print the IR before. */
  printBefore?: readonly string[];
  /** Pass names to print the IR after. */
  printAfter?: readonly string[];
  printBeforeAll?: boolean;
  printAfterAll?: boolean;
  /** `true` is opt's bare `--print-changed` ('changed'). */
  printChanged?: boolean | PrintChangedMode;
  /** Only these functions are printed (by name, without `@`). */
  filterPrintFuncs?: readonly string[];
  /** Pass names whose changes --print-changed reports (the others are `filtered out`). */
  filterPasses?: readonly string[];
  /** Print the whole module, not just the function, in every dump. */
  printModuleScope?: boolean;
  /** opt's -debug-pass-manager. */
  debugPassManager?: boolean;
}

/** Whether any option needs the whole module in memory and every pass execution reported. */
export function printsIR(o: PrintOptions): boolean {
  return Boolean(o.printAfterAll || o.printBeforeAll || o.printChanged || o.printAfter?.length || o.printBefore?.length || o.debugPassManager);
}

/** The analyses hooks a FunctionAnalysisManager calls (for -debug-pass-manager). */
export interface AnalysisObserver {
  computed(analysis: string, fn: Function): void;
  invalidated(analysis: string, fn: Function): void;
}

function countInstructions(fn: Function): number {
  let n = 0;
  for (const bb of fn) for (const _ of bb) n++;
  return n;
}

/** `on f` / `on [module]`, as opt names the IR unit of a pass execution. */
export function unitName(fn: Function | undefined): string {
  return fn === undefined ? '[module]' : fn.name;
}

/**
 * Unified hunks of `before` → `after` (3 lines of context, as `diff -u` prints them), without
 * the file header lines; `color` wraps removed lines in red and added lines in green, with
 * the escapes opt-19's cdiff uses.
 */
export function unifiedHunks(before: string, after: string, color = false): string {
  const p = structuredPatch('before', 'after', before, after, '', '', { context: 3 });
  const out: string[] = [];
  for (const h of p.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    for (const l of h.lines) {
      if (l.startsWith('\\')) continue; // "\ No newline at end of file"
      if (color && l[0] === '-') out.push(`\x1b[31m${l}\x1b[0m`);
      else if (color && l[0] === '+') out.push(`\x1b[32m${l}\x1b[0m`);
      else out.push(l);
    }
  }
  return out.join('\n');
}

export class StandardInstrumentations {
  private readonly before: Set<string> | null;
  private readonly after: Set<string> | null;
  private readonly funcs: Set<string> | null;
  private readonly passes: Set<string> | null;
  private readonly changed: PrintChangedMode | null;
  private started = false;
  /** Hooks for the analysis managers, or null when -debug-pass-manager is off. */
  readonly analyses: AnalysisObserver | null;
  /** The IR text before the running pass, for print-changed (a stack: module passes may nest runs). */
  private readonly texts: (string | null)[] = [];

  constructor(
    private readonly o: PrintOptions,
    private readonly log: (text: string) => void,
  ) {
    this.before = o.printBefore?.length ? new Set(o.printBefore) : null;
    this.after = o.printAfter?.length ? new Set(o.printAfter) : null;
    this.funcs = o.filterPrintFuncs?.length ? new Set(o.filterPrintFuncs) : null;
    this.passes = o.filterPasses?.length ? new Set(o.filterPasses) : null;
    this.changed = o.printChanged === true ? 'changed' : o.printChanged || null;
    this.analyses = o.debugPassManager
      ? {
          computed: (a, fn) => log(`Running analysis: ${a} on ${fn.name}\n`),
          invalidated: (a, fn) => log(`Invalidating analysis: ${a} on ${fn.name}\n`),
        }
      : null;
  }

  /** Whether every execution must run (none skipped by the fixpoint's no-change shortcut). */
  get showsEveryExecution(): boolean {
    return Boolean(this.o.printAfterAll || this.o.printBeforeAll || this.before || this.after);
  }


  private shown(fn: Function | undefined): boolean {
    return this.funcs === null || fn === undefined || this.funcs.has(fn.name);
  }

  private text(m: Module, fn: Function | undefined): string {
    return fn === undefined || this.o.printModuleScope ? printModule(m) : printFunction(fn) + '\n';
  }

  /** Before a pass runs on `fn` (or on the module when `fn` is undefined). */
  beforePass(pass: string, m: Module, fn: Function | undefined): void {
    if (this.changed !== null && !this.started) {
      this.started = true;
      if (!this.changed.includes('quiet')) this.log(`*** IR Dump At Start ***\n${printModule(m)}`);
    }
    if (this.o.debugPassManager) {
      if (fn === undefined) this.log(`Running pass: ${pass} on [module]\n`);
      else {
        const n = countInstructions(fn);
        this.log(`Running pass: ${pass} on ${fn.name} (${n} instruction${n === 1 ? '' : 's'})\n`);
      }
    }
    const shown = this.shown(fn);
    if (shown && (this.o.printBeforeAll || this.before?.has(pass))) {
      this.log(`; *** IR Dump Before ${pass} on ${unitName(fn)} ***\n${this.text(m, fn)}`);
    }
    if (this.changed !== null) this.texts.push(shown ? this.text(m, fn) : null);
  }

  /** After the pass `beforePass` announced; `fn` is undefined for a module pass. */
  afterPass(pass: string, m: Module, fn: Function | undefined, changed: boolean): void {
    if (fn !== undefined && fn.parent !== m) {
      // the pass deleted its function: nothing left to print
      if (this.changed !== null) this.texts.pop();
      return;
    }
    const shown = this.shown(fn);
    if (shown && (this.o.printAfterAll || this.after?.has(pass))) {
      this.log(`; *** IR Dump After ${pass} on ${unitName(fn)} ***\n${this.text(m, fn)}`);
    }
    if (this.changed === null) return;
    const before = this.texts.pop() ?? null;
    const quiet = this.changed.endsWith('quiet');
    // a function -filter-print-funcs leaves out, or a pass -filter-passes does
    if (before === null || (this.passes !== null && !this.passes.has(pass))) {
      if (!quiet) this.log(`*** IR Dump After ${pass} on ${unitName(fn)} filtered out ***\n`);
      return;
    }
    const now = changed ? this.text(m, fn) : before;
    if (now === before) {
      if (!quiet) this.log(`*** IR Dump After ${pass} on ${unitName(fn)} omitted because no change ***\n`);
      return;
    }
    const banner = `*** IR Dump After ${pass} on ${unitName(fn)} ***\n`;
    if (this.changed === 'changed' || this.changed === 'quiet') this.log(banner + now);
    else this.log(`${banner}${unifiedHunks(before, now, this.changed.startsWith('cdiff'))}\n\n`);
  }
}
