/* Jump tables of label addresses: a static array of `&&label`, a table of label
 * differences relative to a base label (GCC's recommendation for position-independent
 * code: `&&l - &&base`, then `goto *(&&base + off)`), and a label address passed through
 * a helper function and compared. */
#include <stdio.h>

static int classify(int x) {
  static void *const table[] = { &&zero, &&one, &&two, &&many };
  int r = 0;
  goto *table[x < 3 ? (x < 0 ? 0 : x) : 3];
zero: r += 1;
one:  r += 10;   /* fallthrough from zero, as a switch would */
two:  return r + 100;
many: return -x;
}

static int relative(int k) {
  static const int offsets[] = { &&r0 - &&r0, &&r1 - &&r0, &&r2 - &&r0, &&r3 - &&r0 };
  int acc = k;
  goto *(&&r0 + offsets[k & 3]);
r0: acc = acc * 3 + 1; goto out;
r1: acc = acc - 7; goto out;
r2: acc ^= 0x55; goto out;
r3: acc = -acc;
out:
  return acc;
}

static void *pick(void *a, void *b, int c) { return c ? a : b; }

static int chooser(int n) {
  int hits = 0;
  for (int i = 0; i < n; i++) {
    void *t = pick(&&even, &&odd, (i & 1) == 0);
    if (t == &&even) hits += 100;
    goto *t;
  even:
    hits += 2;
    continue;
  odd:
    hits += 1;
  }
  return hits;
}

int main(void) {
  long s = 0;
  for (int i = -3; i < 8; i++) { int c = classify(i); printf("classify(%d) = %d\n", i, c); s += c; }
  for (int k = 0; k < 12; k++) { int r = relative(k); printf("relative(%d) = %d\n", k, r); s += r; }
  int h = chooser(31);
  printf("chooser %d\n", h);
  for (int i = 0; i < 5000; i++) s += classify(i % 5) + relative(i);
  printf("sum %ld\n", s);
  return (int)(s & 63);
}
