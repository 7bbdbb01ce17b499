/* Division and remainder at edge values. C truncates toward zero; the sign of a % b
   follows a. INT_MIN / -1 and INT_MIN % -1 are undefined and deliberately avoided. */
#include <stdio.h>
#include <limits.h>

static int ints[] = {0, 1, -1, 2, -2, 7, -7, 13, -13, 100, INT_MAX, INT_MIN, INT_MAX - 1, INT_MIN + 1};
static int divs[] = {1, -1, 2, -2, 3, -3, 7, -7, 10, INT_MAX, INT_MIN};

static int safe(int a, int b) { return !(b == 0 || (a == INT_MIN && b == -1)); }

int main(void) {
  unsigned long long h = 0;
  int n = (int)(sizeof ints / sizeof ints[0]), m = (int)(sizeof divs / sizeof divs[0]);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++) {
      int a = ints[i], b = divs[j];
      if (!safe(a, b)) { printf("skip %d/%d\n", a, b); continue; }
      int q = a / b, r = a % b;
      if (q * b + r != a) { printf("identity broken\n"); return 1; }
      h = h * 1000003u + (unsigned)q * 31u + (unsigned)r;
    }
  }
  printf("int div hash = %llu\n", h);
  printf("-7/2=%d -7%%2=%d 7/-2=%d 7%%-2=%d\n", -7 / 2, -7 % 2, 7 / -2, 7 % -2);
  printf("INT_MIN/2=%d INT_MIN%%3=%d INT_MAX/-1=%d\n", INT_MIN / 2, INT_MIN % 3, INT_MAX / -1);

  long long L[] = {LLONG_MIN, LLONG_MAX, -1000000000000LL, 999999999999LL, -3, 5};
  long long D[] = {2, -3, 1000000007LL, -1000000007LL, LLONG_MAX};
  long long acc = 0;
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 5; j++) {
      long long q = L[i] / D[j], r = L[i] % D[j];
      printf("%lld / %lld = %lld rem %lld\n", L[i], D[j], q, r);
      acc ^= q + r * 7;
    }
  unsigned U[] = {0u, 1u, 0x80000000u, 0xffffffffu, 12345u};
  unsigned UD[] = {1u, 2u, 0xffffffffu, 0x80000000u, 10u};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) printf("%u/%u=%u r%u%c", U[i], UD[j], U[i] / UD[j], U[i] % UD[j], j == 4 ? '\n' : ' ');
  /* narrow types: division happens in int after promotion */
  signed char sc = -128; short ss = -32768;
  printf("sc/-1=%d ss/-1=%d sc%%-1=%d\n", sc / -1, ss / -1, sc % -1);
  unsigned char uc = 200; unsigned short us = 60000;
  printf("uc/7=%d us%%7=%d\n", uc / 7, us % 7);
  return (int)((unsigned long long)acc % 256);
}
