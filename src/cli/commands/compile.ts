/**
 * `ssakit compile FILE.sy [-o OUT.ll] [--ssa=braun|alloca] [--no-fold] [--mem2reg] [-O0|-O1|-O2] [--emit=ll|ast] [--stats]`:
 * compiles a SysY program to LLVM IR text (stdout by default). Errors in the program are
 * printed clang-style (`prog.sy:3:9: error: …` with the line and a caret) and exit with 1.
 * Wiring only: see src/frontend/sysy (compileSysY) and src/passes/pipelines.ts.
 *
 * `sysyCompileOptions` and `compileSysYOrThrow` are shared with `ssakit run FILE.sy`.
 */
import type { Command } from 'commander';
import { Option } from 'commander';
import type { Module } from '../../ir/module.js';
import { analyzeSysY, compileSysY, dumpAst, formatDiagnostics, type CompileSysYOptions, type IRGenStats } from '../../frontend/sysy/index.js';
import { printModule } from '../../text/printer.js';
import { CliError, loadedSources, readInput, writeOutput, writeStderr } from '../common.js';

/** The options `compile` and `run` share, as commander gives them. */
export interface SysYFlags {
  ssa?: string;
  fold?: boolean;
  optLevel?: string | number;
}

/** Adds `--ssa`, `--no-fold` and `--opt-level` to a command. */
export function addSysYOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--ssa <mode>', 'SSA construction: braun (directly, Braun et al.) or alloca (clang-style, then mem2reg at -O1/-O2)').choices(['braun', 'alloca']).default('braun'))
    .option('--no-fold', 'Braun mode: no on-the-fly constant folding, simplification or local CSE')
    .option('--opt-level <n>', 'optimization level 0, 1, 2 or 3 (also -O0 to -O3; -O3 runs -O2): the pipelines default<O1>/default<O2>', '0');
}

export function sysyCompileOptions(flags: SysYFlags): CompileSysYOptions {
  const lvl = String(flags.optLevel ?? '0');
  if (!['0', '1', '2', '3'].includes(lvl)) {
    throw new CliError(`ssakit: error: -O${lvl}: SysY compiles at -O0, -O1, -O2 or -O3 (-O3 runs -O2's pipeline); for -Os/-Oz, compile at -O0 and run 'ssakit opt -O${lvl}' on the .ll`);
  }
  return {
    ssa: flags.ssa === 'alloca' ? 'alloca' : 'braun',
    fold: flags.fold !== false,
    optLevel: Math.min(Number(lvl), 2),
  };
}

/** Compiles, or throws a CliError carrying the formatted diagnostics (exit code 1). */
export function compileSysYOrThrow(source: string, fileName: string, opts: CompileSysYOptions, stats?: (s: IRGenStats) => void): Module {
  const r = compileSysY(source, fileName, opts);
  if (r.module === undefined) throw new CliError(formatDiagnostics(r.diagnostics, source).trimEnd());
  if (stats && r.stats) stats(r.stats);
  return r.module;
}

interface CompileFlags extends SysYFlags {
  output?: string;
  mem2reg?: boolean;
  emit?: string;
  stats?: boolean;
  g?: boolean;
}

export function register(program: Command): void {
  const cmd = program
    .command('compile')
    .description('compile a SysY program to LLVM IR (prints the .ll); errors exit with 1')
    .argument('<file>', "SysY source file ('-' for stdin)")
    .option('-o, --output <file>', "output file ('-' for stdout)", '-')
    .addOption(new Option('--emit <what>', 'what to write: ll (LLVM IR) or ast (the annotated syntax tree)').choices(['ll', 'ast']).default('ll'))
    .option('--stats', 'print what IR generation did (phis created/removed, values folded, CSE hits) to stderr')
    .option('--mem2reg', 'with --ssa=alloca: promote the allocas with mem2reg and run no other pass')
    .option('-g', 'debug info: DICompileUnit, DISubprogram per function, DILocation per statement (as clang -g)');
  addSysYOptions(cmd).action((file: string, flags: CompileFlags) => {
    const text = readInput(file);
    const name = file === '-' ? '<stdin>' : file;
    loadedSources.set(name, text);
    if (flags.emit === 'ast') {
      const r = analyzeSysY(text, name);
      if (r.diagnostics.some((d) => d.severity === 'error')) throw new CliError(formatDiagnostics(r.diagnostics, text).trimEnd());
      writeOutput(flags.output, dumpAst(r.ast));
      return;
    }
    const opts = sysyCompileOptions(flags);
    if (flags.mem2reg) opts.mem2reg = true;
    if (flags.g) opts.debugInfo = true;
    const m = compileSysYOrThrow(text, name, opts, (s) => {
      if (flags.stats) {
        writeStderr(
          `functions: ${s.functions}\nphis created: ${s.phisCreated}\nphis removed (trivial, folded or redundant SCCs): ${s.phisRemoved}\n` +
            `values folded on the fly: ${s.folded}\nlocal CSE hits: ${s.cseHits}\n`,
        );
      }
    });
    writeOutput(flags.output, printModule(m));
  });
}
