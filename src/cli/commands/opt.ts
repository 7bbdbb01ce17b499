/**
 * `ssakit opt FILE.ll [-S] [-o OUT] [-passes=PIPELINE | -O1 | -O2] [instrumentation]`:
 * reads LLVM IR, verifies it, runs a pass pipeline, writes LLVM IR (always text); the work is
 * src/driver/streaming.ts and streaming-parallel.ts (optimizeTextParallel).
 */
import type { Command } from 'commander';
import type { VerifierError } from '../../analysis/verifier.js';
import { ensureRegistered, passInfos } from '../../passes/index.js';
import { likelyWorkers, optimizeTextParallel, startWorkers, stopWorkers, type ParallelOptions } from '../../driver/streaming-parallel.js';
import { CliError, inputSize, loadedSources, readInput, writeOutputBytes, writeStderr, writeStdout } from '../common.js';

export function registerOpt(program: Command): void {
  program
    .command('opt')
    .description('run a pass pipeline over LLVM IR (text in, text out)')
    .argument('[file]', "input .ll file ('-' for stdin)", '-')
    .option('-S', 'write LLVM assembly (the only output format; accepted for opt compatibility)')
    .option('-o, --output <file>', "output file ('-' for stdout)", '-')
    .option('--passes <pipeline>', "pass pipeline in opt syntax, e.g. 'mem2reg,sccp,adce'")
    .option('--opt-level <n>', 'standard pipeline: 0, 1 or 2 (also -O0, -O1, -O2)')
    .option('--verify-each', 'run the verifier after every pass and name the pass that broke the IR')
    .option('--disable-verify', 'do not verify the input and output')
    .option('--print-after-all', 'print the IR after every pass (to stderr)')
    .option('--print-changed', 'print a diff of the IR after each pass that changed it (to stderr)')
    .option('--time-passes', 'print a table of time spent in each pass (to stderr)')
    .option('--stats', 'print the counters passes keep (to stderr)')
    .option('--opt-bisect-limit <n>', 'run only the first N pass executions', (v) => parseInt(v, 10))
    .option('--disable-output', 'do not write the output')
    .option('--threads <n>', 'threads for streamed pipelines on big inputs (default: the cores, at most 4; 1 = one thread)', (v) => parseInt(v, 10))
    .option('--no-streaming', 'read the whole module before running passes (by default, pipelines of function-local passes run on each function as soon as it is read)')
    .option('--list-passes', 'list the available passes and exit')
    .action(async (file: string, o: Record<string, unknown>) => {
      if (o.listPasses) {
        ensureRegistered();
        writeStdout(passInfos().map((p) => `  ${p.name.padEnd(22)} ${p.description}`).join('\n') + '\n');
        return;
      }
      let pipeline = (o.passes as string | undefined) ?? '';
      if (o.optLevel !== undefined) {
        const lvl = String(o.optLevel);
        if (!['0', '1', '2', '3'].includes(lvl)) throw new CliError(`ssakit: error: unknown optimization level -O${lvl}`);
        const std = `default<O${lvl === '3' ? '2' : lvl}>`;
        pipeline = pipeline === '' ? std : `${std},${pipeline}`;
      }
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
          printChanged: Boolean(o.printChanged),
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

export function reportProblems(errs: readonly VerifierError[], what: 'input' | 'output'): void {
  if (errs.length === 0) return;
  const shown = errs.slice(0, 20).map((e) => '  ' + e.message.replace(/\n/g, '\n  '));
  if (errs.length > 20) shown.push(`  … and ${errs.length - 20} more`);
  throw new CliError(`ssakit: error: ${what === 'input' ? 'input module is broken' : 'the optimized module is broken (please report this)'}:\n${shown.join('\n')}`);
}
