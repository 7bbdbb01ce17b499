/**
 * Intrinsics called without a declaration, declared as LLVM 19's LLParser declares them
 * (LLParser::validateEndOfModule): a name LLVM knows as an intrinsic (here: one of
 * ssakit's table, src/ir/intrinsic-signatures.ts) that is used but never defined is not an
 * undefined value. Every use must be the callee of a call ("intrinsic can only be used as
 * callee"), whose function type must fit the intrinsic's signature ("invalid intrinsic
 * signature", both reported where the name was first used); each call then gets the
 * declaration named by mangling its overloaded types (`@llvm.memcpy.p0.p0.ptr(...)` calls
 * `@llvm.memcpy.p0.p0.i64`), made once and added to the module.
 *
 * The parser creates a placeholder function for such a name on first reference and counts
 * its references (constant expressions hold values without use records, so a use outside
 * a call is found by the count).
 */
import { Function } from '../ir/function.js';
import { Instruction } from '../ir/instruction.js';
import { intrinsicSignature } from '../ir/intrinsic-signatures.js';
import { mangledIntrinsicName } from '../ir/intrinsic-mangling.js';
import type { Module } from '../ir/module.js';
import { Opcode } from '../ir/opcodes.js';
import { functionType, voidType } from '../ir/types.js';
import { setUseValue } from '../ir/value.js';

/** A placeholder for an undeclared intrinsic: where it was first named, and how often. */
export interface PendingIntrinsic {
  readonly fn: Function;
  readonly loc: number;
  refs: number;
}

/** Names of the table that are no LLVM 19 intrinsics (read by LLVM's auto-upgrade when declared, undefined when not). */
const UPGRADED_ONLY = new Set(['flt.rounds']);

/** Whether an undefined `@name` is an intrinsic LLParser would declare itself. */
export function isDeclarableIntrinsic(name: string): boolean {
  if (!name.startsWith('llvm.')) return false;
  const sig = intrinsicSignature(name);
  return sig !== null && !UPGRADED_ONLY.has(sig.base);
}

/** A placeholder function for the undeclared intrinsic `name`, first named at `loc`. */
export function pendingIntrinsic(name: string, loc: number): PendingIntrinsic {
  return { fn: new Function(name, functionType(voidType, [])), loc, refs: 0 };
}

/**
 * Declares the intrinsics of `pending` in `m` and points their calls at the declarations;
 * `fail` reports a located error (and throws).
 */
export function declarePendingIntrinsics(m: Module, pending: Iterable<PendingIntrinsic>, fail: (msg: string, loc: number) => never): void {
  for (const p of pending) {
    const uses = [...p.fn.uses()];
    if (uses.length !== p.refs) fail('intrinsic can only be used as callee', p.loc);
    for (const u of uses) {
      const user = u.user;
      if (!(user instanceof Instruction) || user.op !== Opcode.Call || u.index !== 0 || user.auxType === null) fail('intrinsic can only be used as callee', p.loc);
      const name = mangledIntrinsicName(p.fn.name, user.auxType);
      if (name === null) fail('invalid intrinsic signature', p.loc);
      // an existing function of another type is called through the call's type (LLVM's
      // verifier then says "Intrinsic called with incompatible signature")
      const decl = m.getFunction(name) ?? m.addFunction(new Function(name, user.auxType));
      setUseValue(u, decl);
    }
  }
}
