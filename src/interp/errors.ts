/**
 * Control transfers out of running code: faults (turned into located RuntimeErrors by the
 * driver, which knows the frame) and program exit (exit(), abort(), the step limit).
 */
import { RuntimeError } from '../util/diagnostic.js';

/** A runtime error raised while executing; `site` is the instruction index in the current function (−1: use Machine.site). */
export class Fault {
  constructor(
    readonly message: string,
    readonly site: number,
    /** Whether the message names only the function (step limit), not the instruction. */
    readonly fnOnly = false,
  ) {}
}

/** exit(n), abort() and returning from main all end the run through this. */
export class ExitSignal {
  constructor(readonly code: number) {}
}

/**
 * The error `runModule` throws when the program fails at run time. It carries what the
 * program printed so far (when stdout is collected) and the exit code the CLI uses (1).
 */
export class InterpError extends RuntimeError {
  /** Collected stdout up to the failure (collect mode only). */
  stdout?: string;
  stdoutBytes?: Buffer;
  stderr?: string;
  stderrBytes?: Buffer;
  stats?: { total: number; byOpcode: Record<string, number> };
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeError';
  }
}
