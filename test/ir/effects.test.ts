/**
 * Call effects come from the callee's name and attributes (inline, `#N` groups, and the
 * call site's own). They are cached per callee, so the cache must follow every change that
 * can alter the answer: the callee's attribute text, and groups the parser adds later (a
 * streamed module meets the `attributes #N` lines after the bodies that use them).
 */
import { describe, expect, it } from 'vitest';
import { callMemoryEffect, callWillReturn, isTriviallyDead, mayWriteMemory } from '../../src/ir/effects.js';
import type { Instruction } from '../../src/ir/instruction.js';
import type { Module } from '../../src/ir/module.js';
import { Opcode } from '../../src/ir/opcodes.js';
import { parseModule } from '../../src/text/parser.js';

const SRC = `declare i32 @pure(i32) #0
declare i32 @reads(i32) memory(read) nounwind willreturn
declare i32 @opaque(i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @abs(i32)

define i32 @f(i32 %x) {
  %a = call i32 @pure(i32 %x)
  %b = call i32 @reads(i32 %x)
  %c = call i32 @opaque(i32 %x)
  %d = call i32 @opaque(i32 %x) #0
  %e = call i32 @llvm.smax.i32(i32 %x, i32 0)
  %f = call i32 @abs(i32 %x)
  ret i32 %a
}

attributes #0 = { memory(none) nounwind willreturn }
`;

function calls(m: Module): Instruction[] {
  const out: Instruction[] = [];
  for (const b of m.getFunction('f')!) for (let i = b.first; i !== null; i = i.next) if (i.op === Opcode.Call) out.push(i);
  return out;
}

describe('call effects', () => {
  it('read attributes of the callee, its groups and the call site', () => {
    const [a, b, c, d, e, f] = calls(parseModule(SRC));
    expect([a, b, c, d, e, f].map(callMemoryEffect)).toEqual(['none', 'read', 'readwrite', 'none', 'none', 'none']);
    expect([a, b, c, d, e, f].map(callWillReturn)).toEqual([true, true, false, true, true, true]);
    expect(mayWriteMemory(c)).toBe(true);
    // unused: a call that only reads and returns can go, one that may write cannot
    expect(isTriviallyDead(b)).toBe(true);
    expect(isTriviallyDead(c)).toBe(false);
  });

  it('follow a change of the callee attributes after a first query', () => {
    const m = parseModule(SRC);
    const [, , c] = calls(m);
    expect(callMemoryEffect(c)).toBe('readwrite');
    const opaque = m.getFunction('opaque')!;
    opaque.attrs.suffix = ' memory(none) nounwind willreturn';
    expect(callMemoryEffect(c)).toBe('none');
    expect(callWillReturn(c)).toBe(true);
    opaque.attrs.suffix = '';
    expect(callMemoryEffect(c)).toBe('readwrite');
  });

  it('follow attribute groups that appear after a first query', () => {
    const m = parseModule(SRC.replace('declare i32 @opaque(i32)', 'declare i32 @opaque(i32) #7'));
    const [, , c] = calls(m);
    expect(callMemoryEffect(c)).toBe('readwrite'); // #7 is not defined (yet)
    m.attributeGroups.set(7, 'memory(read) nounwind willreturn');
    expect(callMemoryEffect(c)).toBe('read');
  });
});
