/**
 * Shared CLI plumbing: reading inputs (`-` = stdin), writing outputs, and turning every
 * failure into `file:line:col: error: ...` on stderr with exit code 1 — never a stack trace.
 */
import type { Command } from 'commander';
import { isAscii } from 'node:buffer';
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { SourceError, RuntimeError } from '../util/diagnostic.js';

/** An error the CLI prints as is (already formatted) and exits with `code`. */
export class CliError extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
    this.name = 'CliError';
  }
}

export function readInput(file: string): string {
  try {
    const bytes = readFileSync(file === '-' ? 0 : file);
    // Pure ASCII (what clang and opt print) decodes as Latin-1, a plain copy: faster than UTF-8.
    return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  } catch (e) {
    throw new CliError(`ssakit: error: cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/**
 * Refuses a source file of a language ssakit does not compile, by its extension, with what to
 * do instead (the IR reader would otherwise report its first character as unexpected).
 * `sysy`: whether the command compiles SysY itself (`run`); the IR commands point to `compile`.
 */
export function rejectSourceLanguage(file: string, sysy = false): void {
  const ext = /\.([A-Za-z+]+)$/.exec(file)?.[1];
  if (ext === undefined) return;
  const stem = file.slice(0, file.length - ext.length - 1);
  if (ext === 'c' || ext === 'i') {
    throw new CliError(`ssakit: error: ${file}: C is not accepted: compile it with clang-19 -S -emit-llvm ${file} -o ${stem}.ll (add -O0 -Xclang -disable-O0-optnone to optimize it with ssakit), then give ssakit the .ll file`);
  }
  if (['cc', 'cpp', 'cxx', 'C', 'c++', 'ii'].includes(ext)) {
    throw new CliError(`ssakit: error: ${file}: C++ is not accepted: compile it with clang++-19 -S -emit-llvm ${file} -o ${stem}.ll, then give ssakit the .ll file`);
  }
  if (ext === 'bc') throw new CliError(`ssakit: error: ${file}: LLVM bitcode is not accepted, only textual IR: convert it with llvm-dis-19 ${file} -o ${stem}.ll`);
  if (ext === 'sy' && !sysy) throw new CliError(`ssakit: error: ${file}: SysY source: compile it first with 'ssakit compile ${file} -o ${stem}.ll' (or run it with 'ssakit run ${file}')`);
}

/** The size in bytes of an input file; 0 for stdin or when it cannot be known (readInput reports why). */
export function inputSize(file: string): number {
  if (file === '-') return 0;
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

export function writeOutput(file: string | undefined, text: string): void {
  writeOutputBytes(file, [Buffer.from(text, 'utf8')]);
}

/** Writes UTF-8 chunks in order to a file or ('-') to stdout. */
export function writeOutputBytes(file: string | undefined, chunks: readonly Uint8Array[]): void {
  if (file === undefined || file === '-') {
    for (const c of chunks) writeBytesSync(1, c);
    return;
  }
  let fd = -1;
  try {
    fd = openSync(file, 'w');
    for (const c of chunks) writeBytesSync(fd, c);
  } catch (e) {
    throw new CliError(`ssakit: error: cannot write '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** Writes synchronously so large outputs are complete before the process exits. */
export function writeStdout(text: string): void {
  writeAllSync(1, text);
}
export function writeStderr(text: string): void {
  writeAllSync(2, text);
}
function writeAllSync(fd: number, text: string): void {
  writeBytesSync(fd, Buffer.from(text, 'utf8'));
}

function writeBytesSync(fd: number, buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      if ((e as NodeJS.ErrnoException).code === 'EPIPE') return;
      throw e;
    }
  }
}

/** Formats any error for the user. Internal errors get one line, with a hint, not a trace. */
export function describeError(e: unknown, sources?: Map<string, string>): string {
  if (e instanceof SourceError) {
    const text = sources?.get(e.file);
    const msg = e.format(text);
    // C read as IR (from stdin, or a file not named .c): say what the input is and what to do
    if (text !== undefined && !e.file.endsWith('.sy') && looksLikeC(text)) {
      return `${msg}\nssakit: note: this looks like C, and C is not accepted: compile it with clang-19 -S -emit-llvm, then give ssakit the .ll file`;
    }
    return msg;
  }
  if (e instanceof CliError) return e.message;
  if (e instanceof RuntimeError) return `ssakit: runtime error: ${e.message}`;
  // user errors from the library, recognised by name to keep this file free of imports
  if (e instanceof Error && (e.name === 'PipelineError' || e.name === 'VerifyEachError' || e.name === 'VerifierError')) {
    return `ssakit: error: ${e.message}`;
  }
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return 'ssakit: internal error: stack overflow (please report this input)';
  }
  const msg = e instanceof Error ? e.message : String(e);
  return `ssakit: internal error: ${msg}${process.env.SSAKIT_DEBUG ? '\n' + (e as Error).stack : ' (set SSAKIT_DEBUG=1 for a stack trace)'}`;
}

/**
 * Whether a text that failed to parse as LLVM IR is C source: a preprocessor line, or a line
 * that begins a C function definition (IR lines begin with `define`, `declare`, `@`, `%`, `;`,
 * `!`, a label or a keyword, never with a C type followed by a name and a parenthesis).
 */
export function looksLikeC(text: string): boolean {
  const head = text.slice(0, 20_000);
  return /^\s*#\s*(include|define|ifn?def|pragma)\b/m.test(head) || /^(static\s+|inline\s+|const\s+|unsigned\s+|signed\s+)*(int|void|char|long|short|float|double|struct\s+\w+)[\s*]+\w+\s*\(/m.test(head);
}

/** Source texts read during this run, so errors can quote the offending line. */
export const loadedSources = new Map<string, string>();

export function runCli(build: () => Command, argv: string[]): Promise<void> {
  const program = build();
  program.exitOverride();
  const output = {
    writeErr: (s: string) => writeStderr(s),
    writeOut: (s: string) => writeStdout(s),
    // commander's usage errors ("error: unknown option …") in our form: ssakit: error: …
    outputError: (s: string, write: (s: string) => void) => write(s.replace(/^error: /, 'ssakit: error: ')),
  };
  // each subcommand copied its parent's settings when it was added: configure them all
  for (const c of [program, ...program.commands]) c.configureOutput(output);
  return Promise.resolve()
    .then(() => program.parseAsync(argv))
    .then(
      () => {
        process.exitCode = process.exitCode ?? 0;
      },
      (e: unknown) => {
        const ce = e as { code?: string; exitCode?: number };
        if (typeof ce.code === 'string' && ce.code.startsWith('commander.')) {
          process.exitCode = ce.code === 'commander.helpDisplayed' || ce.code === 'commander.version' ? 0 : ce.exitCode ?? 1;
          return;
        }
        writeStderr(describeError(e, loadedSources) + '\n');
        process.exitCode = e instanceof CliError ? e.code : 1;
      },
    );
}
