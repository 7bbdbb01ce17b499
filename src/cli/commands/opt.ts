/**
 * `ssakit opt FILE.ll [-S] [-o OUT] [-passes=PIPELINE | -O0..-O3 | -Os | -Oz] [instrumentation]`:
 * reads LLVM IR, verifies it, runs a pass pipeline, writes LLVM IR (always text); the work is
 * src/driver/streaming.ts and streaming-parallel.ts (optimizeTextParallel).
 */
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import type { VerifierError } from '../../analysis/verifier.js';
import { ensureRegistered, parsePipeline, passInfos } from '../../passes/index.js';
import { PRINT_CHANGED_MODES, type PrintChangedMode } from '../../pm/instrumentation.js';
import { printPipeline } from '../../pm/pipeline-text.js';
import { didYouMean } from '../../util/suggest.js';
import { likelyWorkers, optimizeTextParallel, startWorkers, stopWorkers, type ParallelOptions } from '../../driver/streaming-parallel.js';
import { CliError, inputSize, loadedSources, readInput, rejectSourceLanguage, writeOutputBytes, writeStderr, writeStdout } from '../common.js';

/** opt's optimization levels and the pipeline each runs (src/passes/pipelines.ts says why). */
export const OPT_LEVELS = ['0', '1', '2', '3', 's', 'z'] as const;

/** A comma-separated, repeatable option's values, accumulated (`-print-after=a,b -print-after=c`). */
function commaList(v: string, prev: string[] | undefined): string[] {
  return [...(prev ?? []), ...v.split(',').map((x) => x.trim()).filter((x) => x !== '')];
}

export function registerOpt(program: Command): void {
  program
    .command('opt')
    .description('run a pass pipeline over LLVM IR (text in, text out)')
    .argument('[file]', "input .ll file ('-' for stdin)", '-')
    .option('-S', 'write LLVM assembly (the only output format; accepted for opt compatibility)')
    .option('-o, --output <file>', "output file ('-' for stdout)", '-')
    .option('-p, --passes <pipeline>', "pass pipeline in opt syntax, e.g. 'mem2reg,sccp,adce' or 'default<O2>,dce'")
    .addOption(
      new Option('--opt-level <level>', "standard pipeline, spelled -O0 -O1 -O2 -O3 -Os -Oz as in opt (-O3 runs -O2's pipeline; -Os/-Oz inline less: see --print-pipeline-passes)").argParser(
        (v) => {
          if (!(OPT_LEVELS as readonly string[]).includes(v)) throw new InvalidArgumentError(`-O${v} is not an optimization level: use -O0, -O1, -O2, -O3, -Os or -Oz`);
          return v;
        },
      ),
    )
    .option('--print-pipeline-passes', 'print the pipeline, expanded, in the form -passes= accepts, and exit')
    .option('--print-passes', 'print the pass names -passes= accepts, by kind, and exit')
    .option('--list-passes', 'list the passes with a description of each, and exit')
    .option('--verify-each', 'run the verifier after every pass and name the pass that broke the IR')
    .option('--disable-verify', 'do not verify the input and output')
    .option('--print-after <passes>', 'print the IR after each run of these passes (comma-separated, repeatable; to stderr)', commaList)
    .option('--print-before <passes>', 'print the IR before each run of these passes', commaList)
    .option('--print-after-all', 'print the IR after every pass (to stderr)')
    .option('--print-before-all', 'print the IR before every pass (to stderr)')
    .option('--filter-print-funcs <names>', 'print only these functions (comma-separated) in the dumps above and in --print-changed', commaList)
    .option('--print-module-scope', 'print the whole module, not only the function, in every dump')
    .addOption(
      new Option('--print-changed [mode]', 'print the IR after each pass that changed it (to stderr): the whole function, or unified diffs with =diff, only the changes with =quiet/=diff-quiet, coloured diffs with =cdiff').choices([
        ...PRINT_CHANGED_MODES,
      ]),
    )
    .option('--filter-passes <passes>', '--print-changed reports only these passes (comma-separated; the others are "filtered out")', commaList)
    .option('--debug-pass-manager', 'print each pass and analysis as it runs, and each invalidated analysis (to stderr)')
    .option('--time-passes', 'print a table of time spent in each pass (to stderr)')
    .option('--stats', 'print the counters passes keep (to stderr)')
    .option('--opt-bisect-limit <n>', 'run only the first N pass executions', (v) => parseInt(v, 10))
    .option('--disable-output', 'do not write the output')
    .option('--threads <n>', 'threads for streamed pipelines on big inputs (default: the cores, at most 4; 1 = one thread)', (v) => parseInt(v, 10))
    .option('--no-streaming', 'read the whole module before running passes (by default, pipelines of function-local passes run on each function as soon as it is read)')
    .addHelpText(
      'after',
      `
Optimization levels, spelled as opt spells them (src/passes/pipelines.ts says why):
  -O0  no pass                       -O1  mem2reg and the cheap scalar clean-ups
  -O2  the standard pipeline         -O3  the same as -O2 (ssakit has none of opt's O3-only passes)
  -Os  -O2, inlining less (inline<threshold=20>)
  -Oz  -Os, inlining still less (inline<threshold=7>), no header duplication in loop-rotate
opt's single-dash spellings work too: -passes=mem2reg, -print-after=gvn, -debug-pass-manager.`,
    )
    .action(async (file: string, o: Record<string, unknown>) => {
      ensureRegistered();
      if (o.listPasses) {
        writeStdout(passInfos().map((p) => `  ${p.name.padEnd(22)} ${p.description}`).join('\n') + '\n');
        return;
      }
      if (o.printPasses) {
        writeStdout(passListing());
        return;
      }
      let pipeline = (o.passes as string | undefined) ?? '';
      if (o.optLevel !== undefined) {
        // as opt-19: "Cannot specify -O# and --passes=/--foo-pass, use -passes='default<O#>,other-pass'"
        if (o.passes !== undefined) throw new CliError(`ssakit: error: -O${o.optLevel} and -passes cannot be combined: write -passes='default<O${o.optLevel}>,${pipeline}'`);
        pipeline = `default<O${o.optLevel}>`;
      }
      if (o.printPipelinePasses) {
        // opt prints the pipeline and runs nothing; no input is needed
        writeStdout(printPipeline(parsePipeline(pipeline)) + '\n');
        return;
      }
      rejectSourceLanguage(file);
      const printAfter = checkPassNames(o.printAfter as string[] | undefined, '-print-after');
      const printBefore = checkPassNames(o.printBefore as string[] | undefined, '-print-before');
      const filterPasses = checkPassNames(o.filterPasses as string[] | undefined, '-filter-passes');
      const opts: ParallelOptions = {
        threads: o.threads as number | undefined,
        pipeline,
        verify: !o.disableVerify,
        print: !o.disableOutput,
        printBytes: true,
        tuneHeap: true,
        streaming: o.streaming !== false,
        instrumentation: {
          verifyEach: Boolean(o.verifyEach),
          printAfterAll: Boolean(o.printAfterAll),
          printBeforeAll: Boolean(o.printBeforeAll),
          printAfter,
          printBefore,
          filterPrintFuncs: o.filterPrintFuncs as string[] | undefined,
          printModuleScope: Boolean(o.printModuleScope),
          filterPasses,
          printChanged: o.printChanged === undefined ? false : o.printChanged === true ? 'changed' : (o.printChanged as PrintChangedMode),
          debugPassManager: Boolean(o.debugPassManager),
          timePasses: Boolean(o.timePasses),
          bisectLimit: (o.optBisectLimit as number | undefined) ?? -1,
          log: writeStderr,
        },
      };
      // Worker threads start while the input is read (their start-up takes about 0.3 s).
      const early = likelyWorkers(inputSize(file), opts);
      if (early > 0) opts.workers = startWorkers(early);
      let text: string;
      try {
        text = readInput(file);
      } catch (e) {
        if (opts.workers) stopWorkers(opts.workers);
        throw e;
      }
      const name = file === '-' ? '<stdin>' : file;
      loadedSources.set(name, text);
      const r = await optimizeTextParallel(text, name, opts);
      // opt verifies the input, and the output when passes ran.
      reportProblems(r.inputProblems, 'input');
      reportProblems(r.outputProblems, 'output');
      if (r.pm !== null && o.timePasses) writeStderr(r.pm.timingReport());
      if (r.pm !== null && o.stats) writeStderr(r.pm.statsReport());
      if (r.outputBytes !== null) writeOutputBytes(o.output as string, r.outputBytes);
    });
}

/** Pass names given to -print-after/-print-before: each must name a pass (a typo would print nothing). */
function checkPassNames(names: string[] | undefined, flag: string): string[] | undefined {
  if (names === undefined) return undefined;
  const known = passInfos().map((p) => p.name);
  for (const n of names) {
    if (!known.includes(n)) throw new CliError(`ssakit: error: ${flag}: unknown pass name '${n}'${didYouMean(n, known)} (run 'ssakit opt --print-passes' for the list)`);
  }
  return names;
}

/**
 * `--print-passes`, in opt-19's layout: a heading per kind, a name per line, and the passes
 * that take parameters again under "… with params" with their forms (`inline<threshold=N;…>`;
 * a switch as `no-x;x`, as opt lists them).
 */
function passListing(): string {
  const names: Record<'module' | 'function', string[]> = { module: [], function: [] };
  const withParams: Record<'module' | 'function', string[]> = { module: [], function: [] };
  for (const p of passInfos()) {
    let kind: 'module' | 'function';
    try {
      kind = p.create('').kind;
    } catch {
      kind = 'function'; // a pass that cannot be built without parameters (print<...>) is a function pass
    }
    names[kind].push(p.name);
    if (p.params !== undefined && p.params.length > 0) {
      const forms = p.params.map((s) => (s.syntax.startsWith('[no-]') ? `no-${s.name};${s.name}` : s.syntax.replace(/, /g, ';')));
      withParams[kind].push(`${p.name}<${forms.join(';')}>`);
    }
  }
  const section = (head: string, list: string[]) => (list.length === 0 ? '' : `${head}\n${list.map((n) => `  ${n}\n`).join('')}`);
  return (
    section('Module passes:', names.module) +
    section('Module passes with params:', withParams.module) +
    section('Function passes:', names.function) +
    section('Function passes with params:', withParams.function)
  );
}

export function reportProblems(errs: readonly VerifierError[], what: 'input' | 'output'): void {
  if (errs.length === 0) return;
  const shown = errs.slice(0, 20).map((e) => '  ' + e.message.replace(/\n/g, '\n  '));
  if (errs.length > 20) shown.push(`  … and ${errs.length - 20} more`);
  throw new CliError(`ssakit: error: ${what === 'input' ? 'input module is broken' : 'the optimized module is broken (please report this)'}:\n${shown.join('\n')}`);
}
