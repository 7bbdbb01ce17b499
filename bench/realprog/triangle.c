/* Triangular loop nests whose sums have closed forms (sum of i, of i*j over j < i),
   with the bound from argv or a default, the shape of loop-sum micro-benchmarks. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 3000;
  long s1 = 0, s2 = 0;
  for (int i = 0; i < n; i++) {
    s1 += i;
    for (int j = 0; j < i; j++) s2 += 3;
  }
  unsigned c = 0;
  for (unsigned k = n; k != 0; k--) c += 2;
  printf("%ld %ld %u\n", s1, s2, c);
  return 0;
}
