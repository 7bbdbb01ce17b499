import { describe, expect, it } from 'vitest';
import { runPipeline } from '../../src/passes/index.js';
import { parseModule } from '../../src/text/parser.js';
import { countOps, opt, stat } from './cfg-helpers.js';
import { PRINTF, sameBehaviour } from './ipo-helpers.js';

describe('ipsccp', () => {
  it('a constant argument at every call site becomes a constant in the callee', () => {
    const ir = `${PRINTF}
define internal i32 @scale(i32 %x, i32 %k) {
  %m = mul i32 %x, %k
  ret i32 %m
}
define i32 @main() {
  %c = call i32 @getchar()
  %a = call i32 @scale(i32 %c, i32 3)
  %b = call i32 @scale(i32 7, i32 3)
  %s = add i32 %a, %b
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %s)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(stat(r, 'ipsccp', 'arguments found constant')).toBe(1);
    expect(r.fnText('scale')).toMatch(/mul i32 %x, 3/);
    sameBehaviour(ir, 'ipsccp', 'A');
  });

  it('a function returning a constant: callers use the constant, its return value is zapped', () => {
    const ir = `${PRINTF}
define internal i32 @five(i32 %x) {
  %c = icmp sgt i32 %x, 100
  br i1 %c, label %big, label %small
big:
  ret i32 5
small:
  ret i32 5
}
define i32 @main() {
  %c = call i32 @getchar()
  %v = call i32 @five(i32 %c)
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(r.fnText('main')).toMatch(/@printf\(ptr @\.fmt, i32 5\)/);
    expect(stat(r, 'ipsccp', 'return values zapped')).toBe(1);
    expect(r.fnText('five')).toMatch(/ret i32 poison/);
    sameBehaviour(ir, 'ipsccp', 'x');
  });

  it('an argument that differs between call sites stays, and the callee of an external function is not assumed', () => {
    const ir = `${PRINTF}
define internal i32 @id(i32 %x) {
  ret i32 %x
}
define i32 @ext(i32 %y) {
  %z = add i32 %y, 1
  ret i32 %z
}
define i32 @main() {
  %a = call i32 @id(i32 1)
  %b = call i32 @id(i32 2)
  %e = call i32 @ext(i32 4)
  %s = add i32 %a, %b
  %t = add i32 %s, %e
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %t)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(stat(r, 'ipsccp', 'arguments found constant')).toBe(0);
    // @ext can be called from outside with anything: its argument stays, but its
    // (exact) definition returns y+1, which is not constant either
    expect(r.fnText('ext')).toMatch(/add i32 %y, 1/);
    sameBehaviour(ir, 'ipsccp');
  });

  it('a branch on a constant argument folds in the callee (SCCP through the call graph)', () => {
    const ir = `${PRINTF}
define internal i32 @pick(i32 %flag, i32 %v) {
  %c = icmp eq i32 %flag, 0
  br i1 %c, label %z, label %nz
z:
  ret i32 %v
nz:
  %w = mul i32 %v, 2
  ret i32 %w
}
define i32 @main() {
  %c = call i32 @getchar()
  %r = call i32 @pick(i32 1, i32 %c)
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %r)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(stat(r, 'ipsccp', 'branches folded')).toBe(1);
    expect(r.fnText('pick')).not.toMatch(/icmp/);
    sameBehaviour(ir, 'ipsccp', 'B');
  });

  it('an internal global that is only ever stored its initial value folds to it', () => {
    const ir = `${PRINTF}
@ctx = internal global i32 -1
@n = internal global i32 0
define i32 @main() {
  %c = call i32 @getchar()
  store i32 -1, ptr @ctx
  store i32 %c, ptr @n
  %v = load i32, ptr @ctx
  %x = xor i32 %v, -1
  %m = load i32, ptr @n
  %s = add i32 %x, %m
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %s)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(stat(r, 'ipsccp', 'globals found constant')).toBe(1);
    expect(r.text).not.toMatch(/@ctx/);
    // @n holds input: it stays
    expect(r.fnText('main')).toMatch(/load i32, ptr @n/);
    sameBehaviour(ir, 'ipsccp', 'C');
  });

  it('a global stored a second value is not folded, and neither is one read volatilely', () => {
    const ir = `${PRINTF}
@a = internal global i32 1
@v = internal global i32 1
define i32 @main() {
  store i32 2, ptr @a
  %x = load i32, ptr @a
  %y = load volatile i32, ptr @v
  %s = add i32 %x, %y
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %s)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(r.fnText('main')).toMatch(/load i32, ptr @a/);
    expect(r.fnText('main')).toMatch(/load volatile i32, ptr @v/);
    sameBehaviour(ir, 'ipsccp');
  });

  it('a byval argument is a copy: the callee writing it never writes the global passed (found on fresh generated C)', () => {
    const ir = `${PRINTF}
%struct.S = type { i32, i32 }
@gs = internal global %struct.S { i32 1, i32 2 }
define internal i32 @bump(ptr byval(%struct.S) align 4 %s) {
  %v = load i32, ptr %s
  %w = add i32 %v, 10
  store i32 %w, ptr %s
  ret i32 %w
}
define i32 @main() {
  %a = call i32 @bump(ptr byval(%struct.S) align 4 @gs)
  %b = call i32 @bump(ptr byval(%struct.S) align 4 @gs)
  %g = load i32, ptr @gs
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %g
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %s2)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(stat(r, 'ipsccp', 'arguments found constant')).toBe(0);
    sameBehaviour(ir, 'ipsccp');
  });
  it('leaves the block and instruction ids of functions it does not change (their cached analyses are indexed by them)', () => {
    const ir = `define i32 @main(i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %a, label %b
b:
  %y = add i32 %n, 2
  ret i32 %y
a:
  %x = add i32 %n, 1
  ret i32 %x
}`;
    const m = parseModule(ir, 'ids.ll');
    const f = m.getFunction('main')!;
    // ids with holes, as passes leave them
    f.entry.next!.id = 7;
    f.entry.next!.first!.id = 11;
    f.blockIdBound = 9;
    f.instIdBound = 13;
    const before = f.blocks().map((b) => [b.id, ...b.instructions().map((i) => i.id)].join(','));
    runPipeline(m, 'ipsccp', { verifyEach: true, log: () => {} });
    expect(f.blocks().map((b) => [b.id, ...b.instructions().map((i) => i.id)].join(','))).toEqual(before);
  });
  it('calls in blocks that never run do not lower a callee argument', () => {
    const ir = `${PRINTF}
define internal i32 @f(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
define i32 @main() {
entry:
  %a = call i32 @f(i32 10)
  %c = icmp eq i32 %a, 11
  br i1 %c, label %ok, label %never
never:
  %b = call i32 @f(i32 20)
  br label %ok
ok:
  %p = phi i32 [ %a, %entry ], [ %b, %never ]
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %p)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(r.fnText('main')).toMatch(/@printf\(ptr @\.fmt, i32 11\)/);
    expect(countOps(r.fnText('main'), 'call')).toBe(2);
    sameBehaviour(ir, 'ipsccp');
  });
});
