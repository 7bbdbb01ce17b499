/* A linear congruential generator returning doubles in [0, max), called in a loop (the
   "random" shape of benchmark collections). */
#include <stdio.h>

#define IM 139968
#define IA 3877
#define IC 29573

static long last = 42;

static double gen_random(double max) {
  last = (last * IA + IC) % IM;
  return max * last / IM;
}

int main(int argc, char **argv) {
  int n = 200000;
  double r = 0.0;
  while (n--) r = gen_random(100.0);
  printf("%.9f\n", r);
  return 0;
}
