/* Conversions between integer and floating types, all within range (out-of-range
   float->int is undefined). Truncation toward zero, unsigned <-> double, float rounding. */
#include <stdio.h>
#include <stdint.h>

static int to_int(double d) { return (int)d; }
static unsigned to_uint(double d) { return (unsigned)d; }
static long long to_ll(double d) { return (long long)d; }
static float narrow(double d) { return (float)d; }

int main(void) {
  double ds[] = {0.0, 0.9, -0.9, 1.5, -1.5, 2.5, -2.5, 1e9, -1e9, 2147483647.0, -2147483648.0, 123.999};
  for (unsigned i = 0; i < sizeof ds / sizeof ds[0]; i++)
    printf("%.3f -> int %d, ll %lld\n", ds[i], to_int(ds[i]), to_ll(ds[i]));
  double us[] = {0.0, 1.99, 4294967295.0, 3e9, 2147483648.0};
  for (unsigned i = 0; i < 5; i++) printf("%.2f -> unsigned %u\n", us[i], to_uint(us[i]));
  printf("ll big: %lld %lld\n", to_ll(9.0e18), to_ll(-9.2e18));
  unsigned long long ull = 18446744073709551615ull;
  double dull = (double)ull;
  printf("ull max as double = %.1f\n", dull);
  unsigned long long back = (unsigned long long)1.8e19;
  printf("1.8e19 as ull = %llu\n", back);
  int32_t imax = INT32_MAX;
  float fi = (float)imax;
  printf("INT_MAX as float = %.1f\n", (double)fi);
  int i24 = 16777217;
  printf("16777217 -> float -> int = %d\n", (int)(float)i24);
  for (int k = 0; k < 6; k++) {
    double d = 0.1 * k;
    float f = narrow(d);
    printf("0.1*%d: double %.17g float %.9g diff %.3e\n", k, d, (double)f, d - (double)f);
  }
  /* char/short <-> float */
  signed char c = -100; unsigned char uc = 250; short s = -30000;
  float fc = c, fuc = uc, fs = s;
  printf("%f %f %f\n", fc, fuc, fs);
  float g = 300.75f;
  unsigned char gu = (unsigned char)(int)g;
  printf("(uchar)(int)300.75f = %u\n", gu);
  /* accumulate: int sum of truncated values */
  long long acc = 0;
  for (int k = -500; k <= 500; k += 7) acc += (long long)(k * 1.37) + (int)(k / 3.0f);
  printf("acc = %lld\n", acc);
  /* float arithmetic stays float when both operands are float */
  float a = 16777216.0f, b = 1.0f;
  float fsum = a + b;
  double dsum = (double)a + b;
  printf("float sum %.1f double sum %.1f\n", fsum, dsum);
  return (int)(acc & 0xff);
}
