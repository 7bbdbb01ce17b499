/**
 * `ssakit analyze FILE.ll`: CFG, dominators, frontiers, post-dominators, control dependence,
 * loops and liveness of every defined function, as JSON (`--json`) or text; `--trace=NAME`
 * prints an algorithm step by step (src/passes/traces.ts lists them), `--trace-json` as JSON lines. Wiring only: see src/analysis/report.ts.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import { analyzeModule, reportToJson, reportToText, selectFunctions } from '../../analysis/report.js';
import { traceToJsonLines, traceToText } from '../../analysis/trace.js';
import { TRACES, traceAlgorithm, traceNames } from '../../passes/traces.js';
import { parseModule } from '../../text/parser.js';
import { CliError, loadedSources, readInput, writeOutput, rejectSourceLanguage } from '../common.js';

interface AnalyzeFlags {
  function?: string;
  dom: 'chk' | 'seminca';
  df: 'runner' | 'cytron';
  json?: boolean;
  trace?: string;
  traceJson?: boolean;
  defs?: string;
  output?: string;
}

export function register(program: Command): void {
  program
    .command('analyze')
    .description('print CFG, dominator tree, dominance frontiers, post-dominators, control dependence, loops and liveness')
    .argument('<file>', 'LLVM IR text file (.ll), or - for stdin')
    .option('--function <name>', 'only this function')
    .addOption(new Option('--dom <algorithm>', 'dominator algorithm').choices(['chk', 'seminca']).default('seminca'))
    .addOption(new Option('--df <algorithm>', 'dominance frontier algorithm').choices(['runner', 'cytron']).default('runner'))
    .option('--json', 'one JSON document instead of text')
    .addOption(
      new Option('--trace <algorithm>', `print an algorithm step by step: ${TRACES.map((t) => `${t.name} (${t.description})`).join('; ')}`).choices(traceNames()),
    )
    .option('--trace-json', 'with --trace: one JSON event per line ({algorithm, kind, text, blocks, data}) instead of text')
    .option('--defs <blocks>', 'with --trace=idf or idf-sg: comma-separated definition blocks (default: the store blocks of each alloca)')
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action((file: string, flags: AnalyzeFlags) => {
      rejectSourceLanguage(file);
      const text = readInput(file);
      loadedSources.set(file, text);
      const m = parseModule(text, file);
      let out: string;
      try {
        if (flags.trace !== undefined) {
          const fns = selectFunctions(m, flags.function);
          if (fns.length !== 1) {
            throw new Error(`--trace needs one function: pass --function NAME (defined: ${fns.map((f) => '@' + f.name).join(', ') || 'none'})`);
          }
          const defs = flags.defs === undefined ? undefined : flags.defs.split(',').map((s) => s.trim()).filter((s) => s !== '');
          const events = traceAlgorithm(flags.trace, fns[0], { dom: flags.dom, df: flags.df, defs });
          out = flags.traceJson ? traceToJsonLines(events) : traceToText(events);
        } else {
          const reports = analyzeModule(m, { dom: flags.dom, df: flags.df, functionName: flags.function });
          out = flags.json ? reportToJson(reports) : reportToText(reports);
        }
      } catch (e) {
        if (e instanceof Error && !(e instanceof CliError)) throw new CliError(`ssakit analyze: error: ${e.message}`);
        throw e;
      }
      writeOutput(flags.output, out);
    });
}
