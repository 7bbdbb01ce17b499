/**
 * Internal invariants, kept apart from user errors: `assert` and `unreachable` throw an
 * InternalError, which means a bug in ssakit (the CLI reports it as "internal error" and
 * asks for a report), never a problem of the input. A problem of the input is a
 * SourceError (util/diagnostic.ts), a PipelineError (pm/pipeline-parser.ts) or a
 * VerifierError (analysis/verifier.ts).
 */
export class InternalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InternalError';
  }
}

/** Throws an InternalError saying `what` unless `cond` holds. */
export function assert(cond: unknown, what: string): asserts cond {
  if (!cond) throw new InternalError(what);
}

/** Marks code that cannot run when the invariants hold (e.g. a switch's impossible default). */
export function unreachable(what: string): never {
  throw new InternalError(what);
}
