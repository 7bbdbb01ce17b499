/* Q16.16 fixed-point arithmetic with 64-bit intermediates: multiply, divide,
   square root by Newton on integers, sine by Taylor series, a Mandelbrot membership
   test on a small grid, and comparison against double results. */
#include <stdio.h>
#include <stdint.h>

typedef int32_t fix;
#define FRAC 16
#define ONE (1 << FRAC)

static fix from_int(int v) { return (fix)((uint32_t)v << FRAC); }
static fix from_dbl(double d) { return (fix)(d * ONE + (d >= 0 ? 0.5 : -0.5)); }
static double to_dbl(fix f) { return (double)f / ONE; }
static fix fmul(fix a, fix b) { return (fix)(((int64_t)a * b) >> FRAC); }
static fix fdiv(fix a, fix b) { return (fix)(((int64_t)a * ONE) / b); }

static fix fsqrt(fix x) {
  if (x <= 0) return 0;
  uint64_t n = (uint64_t)x << FRAC, r = n, prev = 0;
  while (r != prev) { prev = r; r = (r + n / r) / 2; if (r > prev) break; }
  while (r * r > n) r--;
  return (fix)r;
}

static fix fsin(fix x) {
  fix term = x, sum = x, x2 = fmul(x, x);
  for (int k = 1; k < 7; k++) {
    term = fdiv(fmul(term, x2), from_int((2 * k) * (2 * k + 1)));
    term = -term;
    sum += term;
  }
  return sum;
}

static int mandel(fix cr, fix ci) {
  fix zr = 0, zi = 0;
  for (int i = 0; i < 30; i++) {
    fix zr2 = fmul(zr, zr), zi2 = fmul(zi, zi);
    if (zr2 + zi2 > from_int(4)) return i;
    fix t = zr2 - zi2 + cr;
    zi = fmul(2 * zr, zi) + ci;
    zr = t;
  }
  return 30;
}

int main(void) {
  fix a = from_dbl(3.25), b = from_dbl(-1.5);
  printf("a*b=%.5f a/b=%.5f a+b=%.5f\n", to_dbl(fmul(a, b)), to_dbl(fdiv(a, b)), to_dbl(a + b));
  for (int i = 1; i <= 5; i++) {
    fix v = from_int(i * i + 1);
    printf("sqrt(%d)=%.4f ", i * i + 1, to_dbl(fsqrt(v)));
  }
  printf("\n");
  double maxerr = 0;
  for (int i = -12; i <= 12; i++) {
    double x = i * 0.25;
    fix s = fsin(from_dbl(x));
    double ref = x, t = x;
    for (int k = 1; k < 12; k++) { t = -t * x * x / ((2 * k) * (2 * k + 1)); ref += t; }
    double err = to_dbl(s) - ref;
    if (err < 0) err = -err;
    if (err > maxerr) maxerr = err;
  }
  printf("sin max error < 1e-3: %d\n", maxerr < 1e-3);
  int inside = 0;
  for (int y = -8; y <= 8; y++) {
    for (int x = -20; x <= 10; x++) {
      int it = mandel(from_dbl(x / 10.0), from_dbl(y / 8.0));
      putchar(it == 30 ? '#' : it > 5 ? '+' : '.');
      inside += it == 30;
    }
    putchar('\n');
  }
  printf("inside=%d\n", inside);
  return inside % 256;
}
