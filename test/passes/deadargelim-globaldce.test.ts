import { describe, expect, it } from 'vitest';
import { opt, stat } from './cfg-helpers.js';
import { PRINTF, sameBehaviour } from './ipo-helpers.js';

describe('deadargelim', () => {
  const IR = `${PRINTF}
define internal i32 @f(i32 %used, i32 %unused, ptr %alsounused) {
  %m = mul i32 %used, 3
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %m)
  ret i32 %m
}
define i32 @main() {
  %c = call i32 @getchar()
  %a = call i32 @f(i32 %c, i32 7, ptr null)
  %b = call i32 @f(i32 2, i32 %c, ptr @.fmt)
  ret i32 0
}`;
  it('drops parameters the body never uses, at the definition and every call', () => {
    const r = opt(IR, 'deadargelim');
    expect(stat(r, 'deadargelim', 'dead arguments removed')).toBe(2);
    expect(r.text).toMatch(/define internal void @f\(i32 %used\)/);
    expect(r.fnText('main')).toMatch(/call void @f\(i32 %c\)/);
    expect(r.fnText('main')).toMatch(/call void @f\(i32 2\)/);
    sameBehaviour(IR, 'deadargelim', 'q');
  });
  it('a result no call uses: the function returns void', () => {
    const r = opt(IR, 'deadargelim');
    expect(stat(r, 'deadargelim', 'dead return values removed')).toBe(1);
    expect(r.fnText('f')).toMatch(/ret void/);
  });
  it('leaves external functions and functions whose address is taken', () => {
    const ir = `${PRINTF}
@fp = global ptr @g
define i32 @ext(i32 %x, i32 %dead) {
  ret i32 %x
}
define internal i32 @g(i32 %x, i32 %dead) {
  ret i32 %x
}
define i32 @main() {
  %a = call i32 @ext(i32 1, i32 2)
  %b = call i32 @g(i32 1, i32 2)
  %s = add i32 %a, %b
  ret i32 %s
}`;
    const r = opt(ir, 'deadargelim');
    expect(stat(r, 'deadargelim', 'dead arguments removed')).toBe(0);
    sameBehaviour(ir, 'deadargelim');
  });
});

describe('globaldce', () => {
  it('deletes a cycle of internal functions nothing live calls, and the globals only they use', () => {
    const ir = `${PRINTF}
@only_dead = internal global i32 0
@live = internal global i32 5
define internal void @a(i32 %n) {
  store i32 %n, ptr @only_dead
  call void @b(i32 %n)
  ret void
}
define internal void @b(i32 %n) {
  call void @a(i32 %n)
  ret void
}
define i32 @main() {
  %v = load i32, ptr @live
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret i32 0
}`;
    const r = opt(ir, 'globaldce');
    expect(stat(r, 'globaldce', 'functions deleted')).toBe(2);
    expect(stat(r, 'globaldce', 'globals deleted')).toBe(1);
    expect(r.text).not.toMatch(/@only_dead|define internal void @a|@b\(/);
    expect(r.text).toMatch(/@live/);
    sameBehaviour(ir, 'globaldce');
  });
  it('a live global whose initializer is another global keeps that global (found on a fresh Csmith program)', () => {
    const ir = `${PRINTF}
@p = internal global ptr @target
@target = internal global i32 7
define i32 @main() {
  %q = load volatile ptr, ptr @p
  %v = load i32, ptr %q
  call i32 (ptr, ...) @printf(ptr @.fmt, i32 %v)
  ret i32 0
}`;
    const r = opt(ir, 'globaldce');
    expect(stat(r, 'globaldce', 'globals deleted')).toBe(0);
    sameBehaviour(ir, 'globaldce');
  });
  it('keeps what an external function or a live global initializer reaches', () => {
    const ir = `@tbl = global [1 x ptr] [ptr @h]
define internal i32 @h() {
  ret i32 1
}
define internal i32 @k() {
  ret i32 2
}
define i32 @pub() {
  %x = call i32 @k()
  ret i32 %x
}`;
    const r = opt(ir, 'globaldce');
    expect(stat(r, 'globaldce', 'functions deleted')).toBe(0);
  });
});
