/* Benchmark: sieve of Eratosthenes over a byte array, repeated, plus prime gaps and
   a segmented count. Loop-heavy integer code with array stores: exercises LICM,
   induction-variable strength reduction and bounds-free address arithmetic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 450000

static int sieve(unsigned char *c, int n) {
  memset(c, 0, (size_t)n + 1);
  c[0] = c[1] = 1;
  for (int i = 2; i * i <= n; i++)
    if (!c[i])
      for (int j = i * i; j <= n; j += i) c[j] = 1;
  int count = 0;
  for (int i = 2; i <= n; i++) count += !c[i];
  return count;
}

int main(void) {
  unsigned char *c = malloc(N + 1);
  if (!c) return 1;
  int total = 0;
  for (int rep = 0; rep < 3; rep++) total += sieve(c, N - rep * 1000);
  int maxgap = 0, last = 2, gapstart = 2;
  long long sum = 0;
  for (int i = 3; i <= N - 2000; i++)
    if (!c[i]) {
      sum += i;
      if (i - last > maxgap) { maxgap = i - last; gapstart = last; }
      last = i;
    }
  printf("total=%d sum=%lld maxgap=%d after %d\n", total, sum, maxgap, gapstart);
  free(c);
  return total % 256;
}
