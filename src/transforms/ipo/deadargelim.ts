/**
 * deadargelim: removes arguments a function never uses and return values no caller uses,
 * after LLVM's DeadArgumentEliminationPass (llvm/lib/Transforms/IPO/DeadArgumentElimination.cpp)
 * in its direct form (LLVM also follows an argument into the calls that pass it on, "live
 * if the callee's parameter is live"; we do not).
 *
 * Only functions whose callers are all known are changed: internal/private, defined, not
 * varargs, every reference a direct call with the function's own type (no address taken,
 * no reference from a constant or another global). For such a function:
 *  - a parameter with no use in the body is dropped (from the signature and every call);
 *  - a non-void result that no call uses becomes `void` (each `ret v` becomes `ret void`).
 * The body moves to a new function of the new type under the same name and attributes; the
 * calls are rebuilt with the remaining arguments (their attributes kept in step).
 * Parameters with ABI meaning (`byval`, `sret`, `inalloca`, `preallocated`, `swifterror`,
 * `nest`) and `musttail` calls leave the function alone.
 */
import type { Function } from '../../ir/function.js';
import { Function as Fn } from '../../ir/function.js';
import { Instruction } from '../../ir/instruction.js';
import type { Module } from '../../ir/module.js';
import { Flag, Opcode } from '../../ir/opcodes.js';
import { functionType, voidType } from '../../ir/types.js';
import { hasExactDefinition, isLocalLinkage, scanGlobalRefs } from './ipo-utils.js';
import { defineCountingPass } from '../../pm/define-pass.js';

export function runDeadArgElim(m: Module, changedFn?: (f: Function) => void): { args: number; returns: number } {
  let args = 0;
  let returns = 0;
  const refs = scanGlobalRefs(m);
  for (const f of m.functions.slice()) {
    if (!isLocalLinkage(f) || !hasExactDefinition(f) || f.fnType.vararg || f.name === '') continue;
    const r = refs.get(f);
    if (r === undefined || r.fromGlobals || r.viaConstant.length > 0) continue;
    const calls: Instruction[] = [];
    let ok = true;
    for (const { inst, index } of r.direct) {
      if (inst.op !== Opcode.Call || index !== 0 || inst.auxType !== f.fnType || (inst.flags & Flag.MustTail) !== 0) ok = false;
      else if (inst.parent !== null) calls.push(inst);
    }
    if (!ok) continue;
    if (f.args.some((a) => /\b(byval|sret|inalloca|preallocated|swifterror|nest)\b/.test(a.attrs))) continue;
    const keep = f.args.map((a) => a.firstUse !== null);
    const dropRet = !f.returnType.isVoid() && calls.every((c) => c.firstUse === null);
    if (keep.every((k) => k) && !dropRet) continue;
    // musttail inside the body ties its signature to its callers'
    let mustTail = false;
    for (let b = f.firstBlock; b !== null; b = b.next) for (let i = b.first; i !== null; i = i.next) if ((i.flags & Flag.MustTail) !== 0) mustTail = true;
    if (mustTail) continue;

    const params = f.fnType.params.filter((_, k) => keep[k]);
    const ret = dropRet ? voidType : f.returnType;
    const nf = new Fn(f.name, functionType(ret, params, false), f.args.filter((_, k) => keep[k]).map((a) => a.name));
    nf.attrs = { ...f.attrs };
    nf.retAttrs = dropRet ? '' : f.retAttrs;
    let j = 0;
    for (let k = 0; k < f.args.length; k++) {
      if (!keep[k]) continue;
      nf.args[j].attrs = f.args[k].attrs;
      f.args[k].replaceAllUsesWith(nf.args[j]);
      j++;
    }
    // move the body
    while (f.firstBlock !== null) {
      const b = f.firstBlock;
      b.removeFromParent();
      nf.appendBlock(b);
    }
    if (dropRet) {
      for (let b = nf.firstBlock; b !== null; b = b.next) {
        const t = b.terminator();
        if (t !== null && t.op === Opcode.Ret && t.ops.length === 1) {
          const rv = new Instruction(Opcode.Ret, voidType, []);
          b.insertBefore(rv, t);
          t.eraseFromParent();
        }
      }
    }
    // the new function takes the old one's place (name, position)
    const pos = m.functions.indexOf(f);
    m.removeFunction(f);
    m.addFunction(nf);
    m.functions.splice(m.functions.indexOf(nf), 1);
    m.functions.splice(pos, 0, nf);
    for (const c of calls) {
      const actuals = [];
      const argAttrs: string[] = [];
      for (let k = 0; k < f.args.length; k++) {
        if (!keep[k]) continue;
        actuals.push(c.arg(k));
        argAttrs.push(c.callAttrs?.args[k] ?? '');
      }
      const nc = new Instruction(Opcode.Call, ret, [nf, ...actuals]);
      nc.auxType = nf.fnType;
      nc.flags = c.flags;
      nc.md = c.md;
      nc.extra = c.extra;
      if (c.callAttrs !== null) nc.callAttrs = { ...c.callAttrs, ret: dropRet ? '' : c.callAttrs.ret, args: argAttrs };
      nc.name = dropRet ? '' : c.name;
      c.parent!.insertBefore(nc, c);
      if (!dropRet && c.firstUse !== null) c.replaceAllUsesWith(nc);
      c.eraseFromParent();
      changedFn?.(nc.parent!.parent!);
    }
    args += keep.filter((k) => !k).length;
    if (dropRet) returns++;
    changedFn?.(nf);
  }
  return { args, returns };
}

export const deadargelimPass = defineCountingPass({
  name: 'deadargelim',
  description: 'drop parameters internal functions never use and results no caller uses',
  module: true,
  count: (m, ctx) => runDeadArgElim(m, (f) => ctx.invalidate(f, 'none')),
  stats: { args: 'dead arguments removed', returns: 'dead return values removed' },
});
