/**
 * The `ssakit` command line. Wiring only: each subcommand lives in
 * src/cli/commands/NAME.ts and exports `register(program)`; compiler logic stays in src/.
 * Bundled as dist/ssakit.cjs, which the executable dist/ssakit.js (src/cli/launcher.ts)
 * loads through V8's code cache and calls `main` of.
 */
import '../platform/node.js';
import { Command } from 'commander';
import { registerAll } from './commands/index.js';
import { runCli } from './common.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('ssakit')
    .description('An SSA compiler middle-end: reads and writes LLVM IR, builds SSA, optimizes, compiles SysY, runs programs.')
    .version('0.1.0')
    .showHelpAfterError();
  registerAll(program);
  return program;
}

/**
 * opt-style single-dash long options (`-passes=mem2reg`, `-verify-each`, `-O2`) become
 * commander's double-dash form, so both spellings work.
 */
export function normalizeArgs(argv: string[]): string[] {
  return argv.map((a, i) => {
    if (i < 2) return a;
    const lvl = /^-O([0-3])$/.exec(a);
    if (lvl) return `--opt-level=${lvl[1]}`;
    if (/^-[a-zA-Z][a-zA-Z0-9]*-?[a-zA-Z0-9-]*(=.*)?$/.test(a) && a.length > 2 && a[2] !== '=' && !/^-[a-zA-Z]$/.test(a.split('=')[0])) {
      return '-' + a;
    }
    return a;
  });
}

/** Runs the command line `argv` (node, script, arguments...); sets process.exitCode. */
export function main(argv: string[]): Promise<void> {
  return runCli(buildProgram, normalizeArgs(argv));
}
