/**
 * Local value numbering: the "DAG of a basic block" of Aho, Lam, Sethi and Ullman,
 * "Compilers" (§8.5.1–8.5.2), and Cooper and Torczon's LVN ("Engineering a Compiler",
 * §8.4.1). Inside one block, an instruction whose opcode and operand value numbers were
 * seen before gets the earlier value; loads of a pointer already loaded or stored in the
 * block, with no possible write in between, are reused; simple identities are folded.
 * Memory is told apart as the course's DAG example needs: a store to one global variable
 * or alloca (addressed directly) leaves what is known of the others (distinct objects
 * never overlap); a store through any other pointer, or a call, forgets everything.
 *
 * In SSA form a value's number is the value itself (after earlier replacements), so the
 * table maps (opcode, type, flags, operands) → the first instruction computing it; the
 * hash key and memory "generations" are those of early-cse.ts, restricted to one block:
 * the tables start empty at every block. It exists for teaching and comparison (run with
 * --debug-pass to see every decision); gvn does more (across blocks, and phis).
 */
import type { Function } from '../../ir/function.js';
import { CSEBlockProcessor } from './early-cse.js';
import type { PassContext } from '../../pm/pass.js';
import { definePass, reportStats } from '../../pm/define-pass.js';

export function localValueNumbering(fn: Function, ctx: PassContext): number {
  const proc = new CSEBlockProcessor(undefined, ctx.trace, true);
  for (let b = fn.firstBlock; b !== null; b = b.next) {
    ctx.trace?.(`lvn: block %${b.name || b.id}`);
    const mark = proc.tables.mark();
    proc.run(b, proc.newGeneration());
    proc.tables.undo(mark);
  }
  const s = proc.stats;
  reportStats(ctx, { 'instructions simplified': s.simplified, 'redundant instructions': s.cse, 'redundant loads': s.loads, 'redundant stores': s.stores, 'dead instructions deleted': s.deleted });
  return s.deleted + s.simplified + s.cse + s.loads + s.stores;
}

export const lvnPass = definePass({
  name: 'lvn',
  description: 'local value numbering (the basic-block DAG): redundant expressions and loads inside each block',
  run: (fn, ctx) => ({ changed: localValueNumbering(fn, ctx) > 0, preserved: 'cfg' }),
});
