/**
 * The list of subcommands. Each file in this folder registers one command
 * (`export function register(program: Command): void`); add it to the list below.
 */
import type { Command } from 'commander';
import { register as analyzeCommand } from './analyze.js';
import { register as dotCommand } from './dot.js';
import { registerOpt } from './opt.js';
import { registerVerify } from './verify.js';
import { register as runCommand } from './run.js';
import { register as compileCommand } from './compile.js';

const registrars: ((program: Command) => void)[] = [
  // one line per command, e.g. `runCommand,` imported from './run.js'
  analyzeCommand,
  dotCommand,
  registerOpt,
  registerVerify,
  runCommand,
  compileCommand,
];

export function registerAll(program: Command): void {
  for (const r of registrars) r(program);
}
