/**
 * What the traces of transforms share (`--trace=mem2reg|braun|lcm|out-of-ssa|…`): they run
 * the pass on a copy of the function's module, so the caller's IR is not changed.
 */
import type { Function } from '../../ir/function.js';
import { printModule } from '../../text/printer.js';
import { parseModule } from '../../text/parser.js';
import { functionSlots } from '../../text/slots.js';

/** A copy of `fn`'s module (printed and parsed again) and the copy of `fn` in it. */
export function copyOfFunction(fn: Function): Function {
  const m = fn.parent;
  if (m === null) throw new Error('trace: the function is not in a module');
  const copy = parseModule(printModule(m), '<trace copy>');
  const f = copy.functions.find((g) => g.name === fn.name);
  if (f === undefined) throw new Error(`trace: @${fn.name} not found in the copy`);
  return f;
}

/** The blocks' printed names in layout order (what `log` lines of a tracer may mention). */
export function blockNamesOf(fn: Function): string[] {
  const slots = functionSlots(fn);
  const names: string[] = [];
  for (let b = fn.firstBlock; b !== null; b = b.next) names.push(slots.nameOf(b) ?? '?');
  return names;
}
