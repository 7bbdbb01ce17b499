/* Benchmark: double-precision matrix multiply on 2-D double arrays (naive i-j-k with a
   scalar accumulator, then i-k-j with a row update), a transpose and a Frobenius norm:
   the multi-dimensional double array code of scientific C programs. */
#include <stdio.h>

/* no llvm.fmuladd: lli -force-interpreter cannot run it (x86-64 without FMA rounds twice anyway) */
#pragma STDC FP_CONTRACT OFF

#define N 128

static double a[N][N], b[N][N], c[N][N], d[N][N], bt[N][N];

int main(void) {
  unsigned s = 12345;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      s = s * 1664525u + 1013904223u; a[i][j] = (double)(s >> 8) / 16777216.0 - 0.5;
      s = s * 1664525u + 1013904223u; b[i][j] = (double)(s >> 8) / 16777216.0 - 0.5;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double t = 0.0;
      for (int k = 0; k < N; k++) t += a[i][k] * b[k][j];
      c[i][j] = t;
    }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) {
      double aik = a[i][k];
      for (int j = 0; j < N; j++) d[i][j] += aik * b[k][j];
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) bt[j][i] = b[i][j];
  double diff = 0.0, norm = 0.0, tr = 0.0;
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) {
      double e = c[i][j] - d[i][j];
      diff += e < 0 ? -e : e;
      norm += c[i][j] * c[i][j];
    }
    double t = 0.0;
    for (int k = 0; k < N; k++) t += a[i][k] * bt[i][k];
    tr += t;
  }
  printf("norm %.12f diff %.3e trace-ish %.12f c[7][9] %.15f\n", norm, diff, tr, c[7][9]);
  return 0;
}
