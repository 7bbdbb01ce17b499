/* Heapsort of pseudo-random doubles (the "heapsort" shape of benchmark collections). */
#include <stdio.h>
#include <stdlib.h>

#define IM 139968
#define IA 3877
#define IC 29573

static long last = 42;
static double gen_random(double max) {
  last = (last * IA + IC) % IM;
  return max * last / IM;
}

static void heapsort(int n, double *ra) {
  int i, j, ir = n, l = (n >> 1) + 1;
  double rra;
  for (;;) {
    if (l > 1) {
      rra = ra[--l];
    } else {
      rra = ra[ir];
      ra[ir] = ra[1];
      if (--ir == 1) {
        ra[1] = rra;
        return;
      }
    }
    i = l;
    j = l << 1;
    while (j <= ir) {
      if (j < ir && ra[j] < ra[j + 1]) ++j;
      if (rra < ra[j]) {
        ra[i] = ra[j];
        j += (i = j);
      } else {
        j = ir + 1;
      }
    }
    ra[i] = rra;
  }
}

int main(void) {
  int n = 20000;
  double *ary = malloc((n + 1) * sizeof(double));
  for (int i = 1; i <= n; i++) ary[i] = gen_random(1.0);
  heapsort(n, ary);
  printf("%.10f\n", ary[n]);
  free(ary);
  return 0;
}
