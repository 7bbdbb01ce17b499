/**
 * globaldce: deletes internal functions and global variables that nothing live refers to,
 * after LLVM's GlobalDCEPass (llvm/lib/Transforms/IPO/GlobalDCE.cpp): a mark phase from the
 * roots, then a sweep.
 *
 * Roots: every global value whose linkage is not internal/private (something outside the
 * module may use it), the `llvm.*` globals (`llvm.used`, `llvm.global_ctors`, ...), anything
 * in a comdat, and aliases. A live function makes live every global value its body
 * mentions (operands and constant expressions inside them); a live global variable makes
 * live what its initializer mentions. What is not marked is deleted, cycles of dead
 * functions included (which deleting functions without uses, as the inliner does, misses).
 * Marking uses an explicit work list.
 */
import { ConstantAggregate, ConstantExpr } from '../../ir/constants.js';
import type { Function, GlobalVariable } from '../../ir/function.js';
import type { Module } from '../../ir/module.js';
import { Value, ValueKind } from '../../ir/value.js';
import { isLocalLinkage } from './ipo-utils.js';
import { defineCountingPass } from '../../pm/define-pass.js';

function isRoot(g: Function | GlobalVariable): boolean {
  return !isLocalLinkage(g) || g.name.startsWith('llvm.') || /\bcomdat\b/.test(g.attrs.suffix);
}

/** Deletes unreachable internal globals and functions; returns how many of each. */
export function runGlobalDCE(m: Module): { functions: number; globals: number } {
  const live = new Set<Value>();
  const work: Value[] = [];
  const mark = (v: Value) => {
    if (!live.has(v)) {
      live.add(v);
      work.push(v);
    }
  };
  for (const f of m.functions) if (isRoot(f)) mark(f);
  for (const g of m.globals) if (isRoot(g)) mark(g);
  // a constant operand: the global value itself is marked, an expression is looked into
  const reach = (c: Value) => {
    if (c.kind === ValueKind.Function || c.kind === ValueKind.GlobalVariable || c.kind === ValueKind.GlobalAlias) mark(c);
    else if (c.kind === ValueKind.ConstantExpr || c instanceof ConstantAggregate || c.kind === ValueKind.BlockAddress) work.push(c);
  };
  for (const a of m.aliases) {
    mark(a);
    reach(a.aliasee);
  }
  const seenConst = new Set<Value>();
  while (work.length > 0) {
    const v = work.pop()!;
    switch (v.kind) {
      case ValueKind.Function: {
        const f = v as Function;
        for (let b = f.firstBlock; b !== null; b = b.next) {
          for (let i = b.first; i !== null; i = i.next) {
            for (const u of i.ops) reach(u.value);
          }
        }
        break;
      }
      case ValueKind.GlobalVariable: {
        const init = (v as GlobalVariable).initializer;
        if (init !== null) reach(init);
        break;
      }
      case ValueKind.GlobalAlias:
        break;
      default: {
        // a constant: what it mentions
        if (seenConst.has(v)) break;
        seenConst.add(v);
        const parts: Value[] =
          v instanceof ConstantExpr ? v.operands : v instanceof ConstantAggregate ? v.elements : v.kind === ValueKind.BlockAddress ? [(v as unknown as { fn: Value }).fn] : [];
        for (const p of parts) reach(p);
      }
    }
  }
  let functions = 0;
  let globals = 0;
  const deadFns = m.functions.filter((f) => !live.has(f));
  // bodies first: dead functions may refer to each other and to dead globals
  for (const f of deadFns) f.deleteBody();
  // (use lists are not consulted: nothing live refers to these, and a use left behind by
  // an instruction some pass unlinked carelessly must not keep one whose initializer
  // names a global deleted here)
  for (const f of deadFns) {
    m.removeFunction(f);
    functions++;
  }
  for (const g of m.globals.slice()) {
    if (live.has(g)) continue;
    m.removeGlobal(g);
    globals++;
  }
  return { functions, globals };
}

export const globaldcePass = defineCountingPass({
  name: 'globaldce',
  description: 'delete internal functions and globals unreachable from the externally visible ones (dead cycles included)',
  module: true,
  count: (m) => runGlobalDCE(m),
  stats: { functions: 'functions deleted', globals: 'globals deleted' },
  preserves: 'all',
});
