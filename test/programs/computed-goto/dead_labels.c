/* Label addresses that constant propagation resolves: a `goto *p` whose p is known, so
 * the indirectbr folds and blocks whose address was taken become unreachable and are
 * deleted while a blockaddress still names them (LLVM then leaves
 * `inttoptr (i32 1 to ptr)` in its place); a label address stored in a global and only
 * compared; an address-taken block reached only by plain branches. */
#include <stdio.h>

static void *saved;

static int f(int x) {
  void *p = &&a;
  if (x > 100) p = &&b;
  saved = &&c;
  goto *p;
a:
  x += 1;
  goto *(x > 1000 ? &&c : &&d);
b:
  x *= 2;
c:
  return x;
d:
  return -x;
}

static int g(int n) {
  int r = 0;
  void *unused = &&never;
  (void)unused;
  for (int i = 0; i < n; i++) {
    if (i == 1000) goto never;
    r += i;
  }
  return r;
never:
  return -1;
}

int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) s += f(i * 50);
  printf("%d %d %d\n", s, saved != 0, g(10));
  void *q = &&end;
  goto *q;
  printf("never\n");
end:
  return s & 63;
}
