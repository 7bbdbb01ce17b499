/* Benchmark: float-heavy stencil on 2-D double arrays (Jacobi relaxation of the heat
   equation, a 5-point stencil, with a residual reduction per sweep): nested loops over
   static double[N][N] arrays, loads and stores of doubles, fadd/fmul chains. */
#include <stdio.h>

/* no llvm.fmuladd: lli -force-interpreter cannot run it (x86-64 without FMA rounds twice anyway) */
#pragma STDC FP_CONTRACT OFF

#define N 192
#define SWEEPS 60

static double u[N][N], v[N][N], f[N][N];

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      u[i][j] = 0.0;
      f[i][j] = ((i * 7 + j * 13) % 17) * 0.01 - 0.08;
    }
  for (int j = 0; j < N; j++) { u[0][j] = 1.0; u[N - 1][j] = -0.5; }
  const double h2 = 1.0 / ((N - 1) * (N - 1));
  double res = 0.0;
  for (int s = 0; s < SWEEPS; s++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1] - h2 * f[i][j]);
    res = 0.0;
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++) {
        double d = v[i][j] - u[i][j];
        res += d * d;
        u[i][j] = v[i][j];
      }
    if (s % 20 == 0) printf("sweep %d residual %.10e\n", s, res);
  }
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) sum += u[i][j] * (1 + (i ^ j) % 3);
  printf("final residual %.10e checksum %.10f\n", res, sum);
  return 0;
}
