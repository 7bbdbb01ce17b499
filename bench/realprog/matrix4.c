/* 4x4 double matrix products of constant matrices, repeated and summed (the shape of
   graphics-transform micro-benchmarks). */
#include <stdio.h>

static void mul4(double r[4][4], const double a[4][4], const double b[4][4]) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double s = 0.0;
      for (int k = 0; k < 4; k++) s += a[i][k] * b[k][j];
      r[i][j] = s;
    }
}

int main(void) {
  double a[4][4] = {{1, 2, 3, 4}, {0.5, 1, 1.5, 2}, {4, 3, 2, 1}, {0, 1, 0, 1}};
  double b[4][4] = {{2, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, {1, 1, 1, 1}};
  double total = 0.0;
  for (int it = 0; it < 20000; it++) {
    double r[4][4];
    mul4(r, a, b);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) total += r[i][j];
  }
  printf("%.3f\n", total);
  return 0;
}
