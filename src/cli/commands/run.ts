/**
 * `ssakit run FILE.ll [--stats] [--max-steps N] [-- ARGS...]`: runs a module from main with
 * the process's stdin/stdout and exits with main's result & 255 (exit(n) & 255, 134 for
 * abort()). A runtime error prints `ssakit: runtime error: … in @f, block %b: <instruction>`
 * and exits with 1. `--stats` prints the dynamic instruction counts to stderr. A `.sy` file
 * is compiled first by the SysY frontend (src/frontend/sysy: compileSysY), with `compile`'s
 * `--ssa`, `--no-fold` and `-O` options (its errors print as `compile` prints them). Wiring only:
 * see src/interp/index.ts.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { formatStats, InterpError, runModule } from '../../interp/index.js';
import { parseModule } from '../../text/parser.js';
import { verifyModule } from '../../analysis/verifier.js';
import { reportProblems } from './opt.js';
import { loadedSources, readInput, writeStderr, rejectSourceLanguage } from '../common.js';
import { addSysYOptions, compileSysYOrThrow, sysyCompileOptions, type SysYFlags } from './compile.js';

interface RunFlags extends SysYFlags {
  stats?: boolean;
  maxSteps?: number;
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

export function register(program: Command): void {
  const cmd = program
    .command('run')
    .description('run a module from main with checked memory (like lli); exit code = main\'s result & 255')
    .argument('<file>', 'LLVM IR text file (.ll), SysY source (.sy), or - for stdin')
    .argument('[args...]', 'arguments for the program (argv[1..])')
    .option('--stats', 'print the number of executed instructions, total and per opcode, to stderr')
    .option('--max-steps <n>', 'stop with a runtime error after N instructions', positiveInt);
  // for .sy files: how to compile (see `ssakit compile`)
  addSysYOptions(cmd).action(async (file: string, args: string[], flags: RunFlags) => {
      rejectSourceLanguage(file, true);
      const text = readInput(file);
      loadedSources.set(file, text);
      const m = file.endsWith('.sy') ? compileSysYOrThrow(text, file, { ...sysyCompileOptions(flags), debugInfo: true }) : parseModule(text, file);
      // as lli does: a broken module is refused before it runs (the interpreter trusts the IR)
      if (!file.endsWith('.sy')) reportProblems(verifyModule(m), 'input');
      try {
        const r = runModule(m, { stdin: 'inherit', stdout: 'inherit', stderr: 'inherit', stats: flags.stats, maxSteps: flags.maxSteps, args });
        if (r.stats) writeStderr(formatStats(r.stats));
        process.exitCode = r.exitCode;
      } catch (e) {
        if (e instanceof InterpError && flags.stats && e.stats) writeStderr(formatStats(e.stats));
        throw e;
      }
    });
}
