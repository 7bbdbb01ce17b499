/** `ssakit verify FILE.ll`: parse and verify; prints every problem, exit 1 when there are any. */
import type { Command } from 'commander';
import { verifyModule } from '../../analysis/verifier.js';
import { parseModule } from '../../text/parser.js';
import { CliError, loadedSources, readInput, writeStdout, rejectSourceLanguage } from '../common.js';

export function registerVerify(program: Command): void {
  program
    .command('verify')
    .description('check that LLVM IR is well formed (parse + verifier)')
    .argument('[file]', "input .ll file ('-' for stdin)", '-')
    .option('-q, --quiet', 'print nothing on success')
    .action((file: string, o: { quiet?: boolean }) => {
      rejectSourceLanguage(file);
      const text = readInput(file);
      const name = file === '-' ? '<stdin>' : file;
      loadedSources.set(name, text);
      const m = parseModule(text, name);
      const errs = verifyModule(m);
      if (errs.length > 0) {
        throw new CliError(`${name}: error: ${errs.length} verifier problem${errs.length === 1 ? '' : 's'}:\n${errs.map((e) => '  ' + e.message.replace(/\n/g, '\n  ')).join('\n')}`);
      }
      if (!o.quiet) writeStdout(`${name}: ok (${m.functions.filter((f) => !f.isDeclaration()).length} functions verified)\n`);
    });
}
