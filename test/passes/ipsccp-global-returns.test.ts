/**
 * Addresses as constants across calls, and the dead results and parameters they leave
 * (csmith-7004053's shape: `static int *func_9(uint32_t p_10, int *p_11)` always returns
 * `&g_23`, and its simplified body stops reading p_10):
 *  - ipsccp: a function that always returns the address of a global gives its calls that
 *    address (LLVM's lattice holds any Constant); its own return value is zapped; a
 *    thread-local global's address is not a constant;
 *  - -O2: deadargelim after the simplification rounds (where LLVM runs it, after the CGSCC
 *    walk) drops the result nobody uses any more and the parameter the body stopped using.
 * Each runs the verifier after every pass, and our interpreter and lli-19 before and after.
 */
import { describe, expect, it } from 'vitest';
import { opt, stat } from './cfg-helpers.js';
import { PRINTF, sameBehaviour } from './ipo-helpers.js';

describe('ipsccp: the address of a global is a constant', () => {
  it("a function that always returns @g: callers use @g, the callee's return value is zapped", () => {
    const ir = `${PRINTF}
@g = internal global i32 3
define internal ptr @where(i32 %x) {
  %c = icmp sgt i32 %x, 100
  br i1 %c, label %big, label %small
big:
  store i32 %x, ptr @g
  ret ptr @g
small:
  ret ptr @g
}
define i32 @main() {
  %c = call i32 @getchar()
  %p = call ptr @where(i32 %c)
  %v = load i32, ptr %p
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(r.fnText('main')).toMatch(/load i32, ptr @g\b/);
    expect(stat(r, 'ipsccp', 'return values zapped')).toBe(1);
    expect(r.fnText('where')).toMatch(/ret ptr poison/);
    sameBehaviour(ir, 'ipsccp', 'x');
  });

  it('two different addresses meet to overdefined; a thread-local address is not a constant', () => {
    const ir = `${PRINTF}
@g = internal global i32 3
@h = internal global i32 4
@t = internal thread_local global i32 5
define internal ptr @pick(i32 %x) {
  %c = icmp sgt i32 %x, 100
  %p = select i1 %c, ptr @g, ptr @h
  ret ptr %p
}
define internal ptr @tls() {
  ret ptr @t
}
define i32 @main() {
  %c = call i32 @getchar()
  %p = call ptr @pick(i32 %c)
  %v = load i32, ptr %p
  %q = call ptr @tls()
  %w = load i32, ptr %q
  %s = add i32 %v, %w
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %s)
  ret i32 0
}`;
    const r = opt(ir, 'ipsccp');
    expect(r.fnText('main')).toMatch(/%p = call ptr @pick/);
    expect(r.fnText('main')).toMatch(/%q = call ptr @tls\(\)/);
    expect(stat(r, 'ipsccp', 'return values zapped')).toBe(0);
    sameBehaviour(ir, 'ipsccp', 'x');
  });
});

describe('-O2: deadargelim after the simplification rounds', () => {
  it('the parameter the simplified body stops using and the result ipsccp made dead both go', () => {
    // @work is too big to inline at either of its two calls; %k is used only when a value
    // reloaded across a loop differs from what was stored before it, which only GVN (in the
    // simplification rounds, after the first deadargelim) sees never happens
    let body = '';
    for (let i = 0; i < 35; i++) body += `  %v${i + 1} = xor i32 %v${i}, ${i * 7 + 1}\n  store volatile i32 %v${i + 1}, ptr @sink\n`;
    const ir = `${PRINTF}
@g = internal global i32 0
@tmp = internal global i32 0
@sink = internal global i32 0
define internal ptr @work(i32 %x, i32 %k) {
entry:
  store i32 %x, ptr @tmp
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %o = load i32, ptr @sink
  %o1 = add i32 %o, %i
  store i32 %o1, ptr @sink
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 4
  br i1 %c, label %loop, label %done
done:
  %l = load i32, ptr @tmp
  %same = icmp eq i32 %l, %x
  %v0 = select i1 %same, i32 %x, i32 %k
${body}  store i32 %v35, ptr @g
  ret ptr @g
}
define i32 @main() {
  %c = call i32 @getchar()
  %k = mul i32 %c, 3
  %p = call ptr @work(i32 %c, i32 %k)
  %q = call ptr @work(i32 %k, i32 %c)
  %v = load i32, ptr %p
  %t = load i32, ptr @tmp
  %s = add i32 %v, %t
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %s)
  ret i32 0
}`;
    const r = opt(ir, 'default<O2>');
    expect(r.text).toMatch(/define internal void @work\(i32 [^,)]*\)/);
    expect(r.fnText('main')).toMatch(/call void @work\(i32 [^,)]*\)/);
    sameBehaviour(ir, 'default<O2>', 'a');
  });
});
