import { describe, expect, it } from 'vitest';
import { functionAttributeText } from '../../src/ir/effects.js';
import { parseMemoryEffects, printMemoryEffects } from '../../src/ir/memory-attr.js';
import { hasLlvm, llvmAsError, OPT, runTool } from '../helpers/llvm.js';
import { countOps, opt, stat } from './cfg-helpers.js';

/** The function attributes of @name after function-attrs, as one text. */
function attrsAfter(ir: string, name: string, pipeline = 'function-attrs'): string {
  const r = opt(ir, pipeline);
  return functionAttributeText(r.fn(name));
}

/** opt-19's function-attrs on the same IR: the memory(...) it prints for @name (or 'memory(unknown)'). */
function llvmMemory(ir: string, name: string): string {
  const r = runTool(OPT, ['-passes=function-attrs', '-S', '-'], { input: ir });
  expect(r.status, r.stderr).toBe(0);
  const text = r.stdout.toString();
  const def = new RegExp(`^define[^\\n]*@${name}\\([^\\n]*#(\\d+)`, 'm').exec(text);
  if (def === null) return 'memory(unknown)';
  const group = new RegExp(`^attributes #${def[1]} = \\{([^}]*)\\}`, 'm').exec(text)![1];
  // in our two locations (inaccessible memory counts as "other")
  const me = parseMemoryEffects(group);
  return me === null ? 'memory(unknown)' : printMemoryEffects(me);
}

function ourMemory(ir: string, name: string): string {
  const me = parseMemoryEffects(attrsAfter(ir, name));
  return me === null ? 'memory(unknown)' : printMemoryEffects(me);
}

const CASES: Record<string, { ir: string; fn: string; memory: string }> = {
  'arithmetic only: memory(none)': {
    fn: 'sq',
    memory: 'memory(none)',
    ir: `define i32 @sq(i32 %x) {
  %m = mul i32 %x, %x
  ret i32 %m
}`,
  },
  'reads a global: memory(read)': {
    fn: 'get',
    memory: 'memory(read, argmem: none)',
    ir: `@g = global i32 0
define i32 @get() {
  %v = load i32, ptr @g
  ret i32 %v
}`,
  },
  'writes through its argument: memory(argmem: write)': {
    fn: 'put',
    memory: 'memory(argmem: write)',
    ir: `define void @put(ptr %p, i32 %v) {
  %q = getelementptr i32, ptr %p, i64 1
  store i32 %v, ptr %q
  ret void
}`,
  },
  'own allocas are invisible to callers: memory(none)': {
    fn: 'local',
    memory: 'memory(none)',
    ir: `define i32 @local(i32 %x) {
  %a = alloca i32
  store i32 %x, ptr %a
  %v = load i32, ptr %a
  ret i32 %v
}`,
  },
  'callee effects propagate bottom-up: memory(read)': {
    fn: 'outer',
    memory: 'memory(read)',
    ir: `@g = global i32 0
define internal i32 @inner() {
  %v = load i32, ptr @g
  ret i32 %v
}
define i32 @outer() {
  %a = call i32 @inner()
  %b = add i32 %a, 1
  ret i32 %b
}`,
  },
  'mutual recursion: the component as a whole, memory(none)': {
    fn: 'even',
    memory: 'memory(none)',
    ir: `define i32 @even(i32 %n) {
  %z = icmp eq i32 %n, 0
  br i1 %z, label %y, label %r
y:
  ret i32 1
r:
  %m = sub i32 %n, 1
  %o = call i32 @odd(i32 %m)
  ret i32 %o
}
define i32 @odd(i32 %n) {
  %z = icmp eq i32 %n, 0
  br i1 %z, label %y, label %r
y:
  ret i32 0
r:
  %m = sub i32 %n, 1
  %o = call i32 @even(i32 %m)
  ret i32 %o
}`,
  },
  'an unknown external call: nothing deduced': {
    fn: 'p',
    memory: 'memory(unknown)',
    ir: `declare i32 @ext(i32)
define i32 @p(i32 %x) {
  %r = call i32 @ext(i32 %x)
  ret i32 %r
}`,
  },
  'a volatile load: it also writes (memory nobody else sees)': {
    fn: 'vol',
    memory: 'memory(readwrite, argmem: none)',
    ir: `@g = global i32 0
define i32 @vol() {
  %v = load volatile i32, ptr @g
  ret i32 %v
}`,
  },
};

describe('function-attrs: memory effects', () => {
  for (const [title, c] of Object.entries(CASES)) {
    it(title, () => {
      expect(ourMemory(c.ir, c.fn)).toBe(c.memory);
      const r = opt(c.ir, 'function-attrs');
      expect(llvmAsError(r.text)).toBeNull();
    });
  }
  // Reason: opt-19's own function-attrs is the oracle for what each case deduces.
  it.runIf(hasLlvm())('agrees with opt-19 -passes=function-attrs on every case', () => {
    for (const [title, c] of Object.entries(CASES)) expect(`${title}: ${ourMemory(c.ir, c.fn)}`).toBe(`${title}: ${llvmMemory(c.ir, c.fn)}`);
  });
});

describe('function-attrs: nounwind, willreturn, norecurse', () => {
  it('a loop-free leaf gets willreturn, nounwind and norecurse', () => {
    const t = attrsAfter(CASES['arithmetic only: memory(none)'].ir, 'sq');
    expect(t).toMatch(/\bwillreturn\b/);
    expect(t).toMatch(/\bnounwind\b/);
    expect(t).toMatch(/\bnorecurse\b/);
  });
  it('a loop blocks willreturn (it may not terminate) but not norecurse', () => {
    const ir = `define i32 @spin(i32 %n) {
entry:
  br label %l
l:
  %i = phi i32 [ 0, %entry ], [ %j, %l ]
  %j = add i32 %i, 1
  %c = icmp eq i32 %j, %n
  br i1 %c, label %x, label %l
x:
  ret i32 %j
}`;
    const t = attrsAfter(ir, 'spin');
    expect(t).not.toMatch(/\bwillreturn\b/);
    expect(t).toMatch(/\bnorecurse\b/);
    expect(t).toMatch(/memory\(none\)/);
  });
  it('recursion blocks willreturn and norecurse', () => {
    const t = attrsAfter(CASES['mutual recursion: the component as a whole, memory(none)'].ir, 'even');
    expect(t).not.toMatch(/\bwillreturn\b/);
    expect(t).not.toMatch(/\bnorecurse\b/);
  });
  it('a call to an external function without attributes blocks all three', () => {
    const t = attrsAfter(CASES['an unknown external call: nothing deduced'].ir, 'p');
    expect(t).not.toMatch(/\b(willreturn|nounwind|norecurse)\b/);
  });
  it('top-down: an internal function called only from a norecurse function is norecurse', () => {
    const ir = `declare void @ext()
define internal void @leaf() {
  call void @ext()
  ret void
}
define void @root() norecurse {
  call void @leaf()
  ret void
}`;
    expect(attrsAfter(ir, 'leaf')).toMatch(/\bnorecurse\b/);
  });
});

describe('function-attrs: parameters', () => {
  it('a pointer only loaded from is nocapture readonly; one stored to is nocapture writeonly', () => {
    const ir = `define i32 @f(ptr %r, ptr %w) {
  %v = load i32, ptr %r
  store i32 %v, ptr %w
  ret i32 %v
}`;
    const r = opt(ir, 'function-attrs');
    expect(r.fn('f').args[0].attrs).toBe('nocapture readonly');
    expect(r.fn('f').args[1].attrs).toBe('nocapture writeonly');
    expect(stat(r, 'function-attrs', 'parameters given nocapture/access attributes')).toBe(2);
    expect(llvmAsError(r.text)).toBeNull();
  });
  it('a pointer stored to memory, returned or passed to an unknown call is captured', () => {
    const ir = `@g = global ptr null
declare void @ext(ptr)
define ptr @f(ptr %a, ptr %b, ptr %c) {
  store ptr %a, ptr @g
  call void @ext(ptr %c)
  ret ptr %b
}`;
    const r = opt(ir, 'function-attrs');
    for (const a of r.fn('f').args) expect(a.attrs).not.toMatch(/nocapture/);
  });
  it('a pointer passed to a nocapture readonly parameter stays nocapture readonly', () => {
    const ir = `define internal i32 @rd(ptr %p) {
  %v = load i32, ptr %p
  ret i32 %v
}
define i32 @f(ptr %q) {
  %v = call i32 @rd(ptr %q)
  ret i32 %v
}`;
    const r = opt(ir, 'function-attrs');
    expect(r.fn('f').args[0].attrs).toBe('nocapture readonly');
  });
});

describe('function-attrs: the optimizers use what it deduces', () => {
  const PURE = `define internal i32 @sq(i32 %x) {
  %m = mul i32 %x, %x
  ret i32 %m
}
`;
  it('GVN merges two calls of a function it proved memory(none) willreturn', () => {
    const ir = `${PURE}define i32 @f(i32 %x) {
  %a = call i32 @sq(i32 %x)
  %b = call i32 @sq(i32 %x)
  %s = add i32 %a, %b
  ret i32 %s
}`;
    expect(countOps(opt(ir, 'gvn').fnText('f'), 'call')).toBe(2);
    expect(countOps(opt(ir, 'function-attrs,gvn').fnText('f'), 'call')).toBe(1);
    expect(countOps(opt(ir, 'function-attrs,early-cse').fnText('f'), 'call')).toBe(1);
  });
  it('DCE and ADCE delete an unused call of it', () => {
    const ir = `${PURE}define i32 @f(i32 %x) {
  %a = call i32 @sq(i32 %x)
  ret i32 %x
}`;
    expect(countOps(opt(ir, 'dce').fnText('f'), 'call')).toBe(1);
    expect(countOps(opt(ir, 'function-attrs,dce').fnText('f'), 'call')).toBe(0);
    expect(countOps(opt(ir, 'function-attrs,adce').fnText('f'), 'call')).toBe(0);
  });
  it('the inliner deletes an unused call of it instead of inlining it', () => {
    const ir = `${PURE}define i32 @f(i32 %x) {
  %a = call i32 @sq(i32 %x)
  ret i32 %x
}`;
    const r = opt(ir, 'function-attrs,inline');
    expect(stat(r, 'inline', 'unused calls of pure functions deleted')).toBe(1);
    expect(stat(r, 'inline', 'call sites inlined')).toBe(0);
    expect(r.text).not.toMatch(/@sq/);
  });
  it('LICM hoists it out of a loop', () => {
    const ir = `${PURE}define i32 @f(i32 %x, i32 %n) {
entry:
  br label %l
l:
  %i = phi i32 [ 0, %entry ], [ %j, %l ]
  %s = phi i32 [ 0, %entry ], [ %t, %l ]
  %c = call i32 @sq(i32 %x)
  %t = add i32 %s, %c
  %j = add i32 %i, 1
  %d = icmp slt i32 %j, %n
  br i1 %d, label %l, label %out
out:
  ret i32 %t
}`;
    const before = opt(ir, 'loop-simplify,licm').fn('f');
    const after = opt(ir, 'function-attrs,loop-simplify,licm').fn('f');
    const callBlock = (f: typeof before) => f.instructions().find((i) => i.calledFunction()?.name === 'sq')!.parent!.name;
    expect(callBlock(before)).toBe('l');
    expect(callBlock(after)).not.toBe('l');
  });
});
