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

/**
 * Commands whose unknown-option error names the option without its `=value`, so that
 * commander's "(Did you mean --print-changed?)" finds the option a typo like
 * `-print-chnged=diff` meant (commander compares the whole `--print-chnged=diff` otherwise,
 * and suggests nothing).
 */
class SsakitCommand extends Command {
  override createCommand(name?: string): Command {
    return new SsakitCommand(name);
  }
}
const commanderUnknownOption = (Command.prototype as unknown as { unknownOption(flag: string): never }).unknownOption;
(SsakitCommand.prototype as unknown as { unknownOption(flag: string): never }).unknownOption = function (this: Command, flag: string): never {
  return commanderUnknownOption.call(this, flag.startsWith('--') ? flag.replace(/=[\s\S]*$/, '') : flag);
};

export function buildProgram(): Command {
  const program = new SsakitCommand();
  program
    .name('ssakit')
    .description('An SSA compiler middle-end: reads and writes LLVM IR, builds SSA, optimizes, compiles SysY, runs programs.')
    .version('0.1.0')
    // a usage error says what was wrong and where the options are listed, without the whole help
    .showHelpAfterError("(add --help for the options)");
  registerAll(program);
  return program;
}

/**
 * opt-style single-dash long options (`-passes=mem2reg`, `-verify-each`) become commander's
 * double-dash form, so both spellings work; opt's levels `-O0 -O1 -O2 -O3 -Os -Oz` (and
 * `--O2`) become `--opt-level=N`; a bare `--print-changed` becomes `--print-changed=changed`
 * (its value is optional, and commander would otherwise take the input file for it).
 */
export function normalizeArgs(argv: string[]): string[] {
  return argv.map((a, i) => {
    if (i < 2) return a;
    const lvl = /^--?O([0-9A-Za-z]+)$/.exec(a);
    if (lvl) return `--opt-level=${lvl[1]}`;
    if (a === '-print-changed' || a === '--print-changed') return '--print-changed=changed';
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
