/* Floating point algorithms: Newton iteration vs the sqrt intrinsic, Simpson integration,
   series, __builtin_fabs, comparisons. __builtin_elementwise_sqrt is used rather than
   __builtin_sqrt because the latter is a call to libm sqrt unless -fno-math-errno;
   the elementwise one is always llvm.sqrt.f64. No NaN or infinity is ever produced. */
#include <stdio.h>

static double newton_sqrt(double x) {
  if (x == 0.0) return 0.0;
  double g = x > 1 ? x / 2 : 1.0;
  for (int i = 0; i < 60; i++) {
    double n = 0.5 * (g + x / g);
    if (__builtin_fabs(n - g) < 1e-15 * n) return n;
    g = n;
  }
  return g;
}

static double f(double x) { return x * x * x - 2 * x + 1; }

static double simpson(double a, double b, int n) {
  double h = (b - a) / n, s = f(a) + f(b);
  for (int i = 1; i < n; i++) s += f(a + i * h) * (i % 2 ? 4 : 2);
  return s * h / 3;
}

static double bisect(double lo, double hi) {
  for (int i = 0; i < 80; i++) {
    double mid = (lo + hi) / 2;
    if ((f(lo) < 0) == (f(mid) < 0)) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

static float fpoly(float x) { return ((2.5f * x - 1.25f) * x + 0.5f) * x - 3.0f; }

int main(void) {
  for (int i = 0; i <= 10; i++) {
    double x = i * i * 1.7 + 0.3;
    double a = newton_sqrt(x), b = __builtin_elementwise_sqrt(x);
    printf("sqrt(%.2f) newton=%.10f builtin=%.10f close=%d\n", x, a, b, __builtin_fabs(a - b) < 1e-12);
  }
  printf("simpson = %.9f\n", simpson(0, 2, 100));
  printf("root = %.9f\n", bisect(0.7, 2.0));
  double pi = 0;
  for (int k = 0; k < 2000; k++) pi += (k % 2 ? -4.0 : 4.0) / (2 * k + 1);
  printf("leibniz pi = %.6f\n", pi);
  double e = 1, term = 1;
  for (int k = 1; k < 20; k++) { term /= k; e += term; }
  printf("e = %.15f\n", e);
  float fs = 0;
  for (int i = -10; i <= 10; i++) fs += fpoly(i * 0.25f);
  printf("float poly sum = %.4f\n", fs);
  printf("fabs: %.2f %.2f %.2f\n", __builtin_fabs(-3.5), __builtin_fabs(2.25), __builtin_fabs(-0.0));
  double vals[] = {3.0, -1.0, 2.5, 2.5, -7.25, 0.0};
  int lt = 0, eq = 0, ge = 0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) { lt += vals[i] < vals[j]; eq += vals[i] == vals[j]; ge += vals[i] >= vals[j]; }
  printf("lt=%d eq=%d ge=%d\n", lt, eq, ge);
  return (int)(pi * 10) + lt;
}
