/**
 * The `ssakit` command line. Wiring only: each subcommand lives in
 * src/cli/commands/NAME.ts and exports `register(program)`; compiler logic stays in src/.
 */
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

runCli(buildProgram, process.argv);
