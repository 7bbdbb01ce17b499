/* Benchmark: quicksort (Hoare partition, median of three, insertion sort for short
   ranges, explicit stack instead of recursion) of a PRNG-filled int array, verified
   and checksummed. Memory-heavy with data-dependent branches. */
#include <stdio.h>
#include <stdlib.h>

#define N 140000

static void insertion(int *a, int lo, int hi) {
  for (int i = lo + 1; i <= hi; i++) {
    int v = a[i], j = i - 1;
    while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

static void quicksort(int *a, int n) {
  int stack[128], sp = 0;
  stack[sp++] = 0; stack[sp++] = n - 1;
  while (sp) {
    int hi = stack[--sp], lo = stack[--sp];
    while (hi - lo > 16) {
      int mid = lo + (hi - lo) / 2;
      if (a[mid] < a[lo]) { int t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
      if (a[hi] < a[lo]) { int t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
      if (a[hi] < a[mid]) { int t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
      int p = a[mid], i = lo - 1, j = hi + 1;
      for (;;) {
        do i++; while (a[i] < p);
        do j--; while (a[j] > p);
        if (i >= j) break;
        int t = a[i]; a[i] = a[j]; a[j] = t;
      }
      if (j - lo < hi - j) { stack[sp++] = j + 1; stack[sp++] = hi; hi = j; }
      else { stack[sp++] = lo; stack[sp++] = j; lo = j + 1; }
    }
    insertion(a, lo, hi);
  }
}

int main(void) {
  int *a = malloc(N * sizeof *a);
  if (!a) return 1;
  unsigned long long x = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < N; i++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; a[i] = (int)(x % 1000000) - 500000; }
  quicksort(a, N);
  int sorted = 1;
  unsigned long long h = 0;
  for (int i = 0; i < N; i++) {
    if (i && a[i - 1] > a[i]) sorted = 0;
    h = h * 1000003ull + (unsigned)a[i];
  }
  printf("sorted=%d min=%d median=%d max=%d hash=%llu\n", sorted, a[0], a[N / 2], a[N - 1], h);
  free(a);
  return sorted ? (int)(h % 200) + 1 : 255;
}
