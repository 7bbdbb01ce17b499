/**
 * The trace of mem2reg's renaming (Cytron et al. 1991, §5.2 "Renaming": SEARCH(X) walks the
 * dominator tree; each variable V has a stack S(V) of its reaching definitions and a
 * counter C(V) of the definitions seen). mem2reg.ts keeps the stacks as one undo log (the
 * current definitions plus what each block overwrote); this tracer is told every push and
 * every undo, so it shows the per-variable stacks the paper draws. Only used when tracing.
 */
import type { BasicBlock } from '../../ir/basic-block.js';
import type { Function } from '../../ir/function.js';
import type { Instruction } from '../../ir/instruction.js';
import { type Value, ValueKind } from '../../ir/value.js';
import type { Tracer } from '../../analysis/trace.js';
import { functionSlots } from '../../text/slots.js';

export class RenameTracer {
  private readonly stacks: string[][] = [];
  private readonly counters: number[] = [];
  private readonly varNames: string[] = [];
  private readonly slots;

  /** Call before the function changes, so values keep the numbers of the input. */
  constructor(
    readonly t: Tracer,
    fn: Function,
  ) {
    this.slots = functionSlots(fn);
  }

  value(v: Value): string {
    if (v.kind === ValueKind.Undef) return 'undef';
    if (v.kind === ValueKind.Poison) return 'poison';
    if (v.name !== '') return '%' + v.name;
    const s = this.slots.nameOf(v);
    if (s !== undefined) return '%' + s;
    if (v.kind === ValueKind.ConstantInt) return String((v as unknown as { value: bigint }).value);
    return '(value)';
  }

  block(b: BasicBlock): string {
    return b.name !== '' ? b.name : (this.slots.nameOf(b) ?? '?');
  }

  start(vars: readonly Instruction[], general: Uint8Array): void {
    const shown: string[] = [];
    for (let v = 0; v < vars.length; v++) {
      this.varNames[v] = this.value(vars[v]);
      this.stacks[v] = ['undef'];
      this.counters[v] = 0;
      if (general[v]) shown.push(this.varNames[v]);
    }
    this.t.step('rename-start', `renaming: walk the dominator tree in preorder; every stack S(V) starts as [undef], every counter C(V) = 0, for ${shown.join(', ')}`, [], {
      stacks: Object.fromEntries(shown.map((n) => [n, ['undef']])),
    });
  }

  enter(b: BasicBlock, depth: number): void {
    const bn = this.block(b);
    this.t.step('enter', `${'  '.repeat(depth)}enter ${bn}`, [bn], { block: bn, depth });
  }

  /** A definition of variable v: a phi of v at the top of a block, or a store. */
  define(v: number, val: Value, how: 'phi' | 'store', b: BasicBlock, depth: number): void {
    const c = ++this.counters[v];
    const name = this.value(val);
    this.stacks[v].push(name);
    const bn = this.block(b);
    this.t.step(
      'define',
      `${'  '.repeat(depth + 1)}${how === 'phi' ? `phi ${name}` : `store ${name}`} defines ${this.varNames[v]}: C(${this.varNames[v]}) = ${c}, push; S(${this.varNames[v]}) = [${this.stacks[v].join(', ')}]`,
      [bn],
      { variable: this.varNames[v], value: name, how, counter: c, stack: [...this.stacks[v]] },
    );
  }

  use(v: number, load: Instruction, val: Value, b: BasicBlock, depth: number): void {
    const bn = this.block(b);
    const name = this.value(val);
    this.t.step('use', `${'  '.repeat(depth + 1)}load ${this.value(load)} of ${this.varNames[v]} becomes ${name} (top of S(${this.varNames[v]}))`, [bn], {
      variable: this.varNames[v],
      load: this.value(load),
      value: name,
    });
  }

  fill(v: number, phi: Instruction, val: Value, from: BasicBlock, to: BasicBlock, depth: number): void {
    const f = this.block(from);
    const s = this.block(to);
    this.t.step('phi-operand', `${'  '.repeat(depth + 1)}successor ${s}: phi ${this.value(phi)} of ${this.varNames[v]} gets [${this.value(val)}, ${f}]`, [s, f], {
      variable: this.varNames[v],
      phi: this.value(phi),
      value: this.value(val),
      from: f,
    });
  }

  /** Leaving block b: the definitions it pushed (variables, newest last) are popped. */
  leave(b: BasicBlock, popped: readonly number[], depth: number): void {
    const bn = this.block(b);
    const parts: string[] = [];
    for (let k = popped.length - 1; k >= 0; k--) {
      const v = popped[k];
      this.stacks[v].pop();
    }
    const seen = new Set<number>();
    for (const v of popped) {
      if (seen.has(v)) continue;
      seen.add(v);
      parts.push(`S(${this.varNames[v]}) = [${this.stacks[v].join(', ')}]`);
    }
    this.t.step('leave', `${'  '.repeat(depth)}leave ${bn}${parts.length > 0 ? `: pop what it pushed; ${parts.join(', ')}` : ''}`, [bn], { block: bn, popped: popped.map((v) => this.varNames[v]) });
  }
}
