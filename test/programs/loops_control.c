/* Loop forms and control: do/while that runs once, while with complex conditions,
   for with comma expressions, break/continue in nested loops, infinite for(;;) with
   break, loops counting down through zero with unsigned guards. */
#include <stdio.h>

int main(void) {
  int n = 0;
  do { n++; } while (0);
  printf("do-once n=%d\n", n);
  unsigned x = 27; int steps = 0;
  do {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    steps++;
  } while (x != 1);
  printf("collatz(27) steps=%d\n", steps);
  int primes = 0;
  for (int i = 2; i < 200; i++) {
    int d;
    for (d = 2; d * d <= i; d++)
      if (i % d == 0) break;
    if (d * d <= i) continue;
    primes++;
  }
  printf("primes<200=%d\n", primes);
  int i, j;
  for (i = 0, j = 10; i < j; i++, j--) printf("(%d,%d)", i, j);
  printf("\n");
  int hits = 0;
  for (int a = 0; a < 10; a++) {
    if (a == 3) continue;
    for (int b = 0; b < 10; b++) {
      if (b > a) break;
      if ((a + b) % 3 == 0) continue;
      hits++;
    }
  }
  printf("hits=%d\n", hits);
  int k = 0;
  for (;;) {
    k += 7;
    if (k % 5 == 0 && k % 3 == 0) break;
  }
  printf("k=%d\n", k);
  unsigned total = 0;
  for (unsigned u = 10; u-- > 0;) total += u;
  printf("countdown total=%u\n", total);
  int w = 100, iters = 0;
  while (w > 1 && iters < 1000) {
    if (w % 2) { w = w * 3 + 1; iters++; continue; }
    w /= 2;
    iters++;
  }
  printf("w=%d iters=%d\n", w, iters);
  int grid = 0, outer = 0;
  while (outer < 5) {
    int inner = 0;
    do {
      grid += outer * inner;
      if (grid > 50) break;
      inner++;
    } while (inner < 5);
    outer++;
  }
  printf("grid=%d\n", grid);
  long long f = 1;
  int m = 1;
  while (1) { f *= m; if (f > 1000000000000LL) break; m++; }
  printf("first factorial over 1e12: %d! = %lld\n", m, f);
  return steps + hits;
}
