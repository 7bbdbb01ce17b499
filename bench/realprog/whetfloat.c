/* Whetstone-style floating-point modules: array element updates, procedure calls with
   float arguments, and a fixed-point iteration, in the spirit of the classic synthetic
   benchmark (written afresh, not its code). */
#include <stdio.h>

static double e1[4];
static double t = 0.499975, t2 = 2.0;

static void pa(double e[4]) {
  for (int j = 0; j < 6; j++) {
    e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
    e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
    e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
    e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
  }
}

static void p3(double x, double y, double *z) {
  x = t * (x + y);
  y = t * (x + y);
  *z = (x + y) / t2;
}

int main(void) {
  int loops = 2000;
  double x1 = 1.0, x2 = -1.0, x3 = -1.0, x4 = -1.0;
  for (int i = 0; i < loops; i++) {
    x1 = (x1 + x2 + x3 - x4) * t;
    x2 = (x1 + x2 - x3 + x4) * t;
    x3 = (x1 - x2 + x3 + x4) * t;
    x4 = (-x1 + x2 + x3 + x4) * t;
  }
  e1[0] = 1.0; e1[1] = -1.0; e1[2] = -1.0; e1[3] = -1.0;
  for (int i = 0; i < loops; i++) pa(e1);
  double z = 0.0, x = 1.0, y = 1.0;
  for (int i = 0; i < loops * 4; i++) p3(x, y, &z);
  int j = 1, k = 2, l = 3;
  double e2[4] = {0, 0, 0, 0};
  for (int i = 0; i < loops * 8; i++) {
    j = j * (k - j) * (l - k);
    k = l * k - (l - j) * k;
    l = (l - k) * (k + j);
    e2[l & 3] = j + k + l;
    e2[k & 3] = j * k * l;
  }
  printf("%.6f %.6f %.6f %.6f\n", x1, x2, x3, x4);
  printf("%.6f %.6f %.6f %.6f\n", e1[0], e1[1], e1[2], e1[3]);
  printf("%.6f %.6f %d %d %d\n", z, e2[0] + e2[1] + e2[2] + e2[3], j, k, l);
  return 0;
}
