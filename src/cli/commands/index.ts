/**
 * The list of subcommands. Each file in this folder registers one command
 * (`export function register(program: Command): void`); add it to the list below.
 */
import type { Command } from 'commander';

const registrars: ((program: Command) => void)[] = [
  // one line per command, e.g. `runCommand,` imported from './run.js'
];

export function registerAll(program: Command): void {
  for (const r of registrars) r(program);
}
