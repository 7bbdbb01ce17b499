/* The usual arithmetic conversions in comparisons and arithmetic: signed vs unsigned
   (-1 < 0u is false), long long vs unsigned int, char vs unsigned char, mixed
   int/double, and explicit casts that restore the intended meaning. */
#include <stdio.h>
#include <stdint.h>

int main(void) {
  int neg = -1;
  unsigned uz = 0;
  printf("-1 < 0u: %d  -1 < (int)0u: %d\n", neg < uz, neg < (int)uz);
  long long ll = -1;
  unsigned u32 = 1;
  printf("-1LL < 1u: %d (long long wins)\n", ll < u32);
  unsigned long long ull = 1;
  printf("-1LL < 1ULL: %d (unsigned long long wins)\n", ll < ull);
  unsigned short us = 1;
  printf("-1 < (unsigned short)1: %d (promoted to int)\n", neg < us);
  signed char sc = -1; unsigned char uc = 255;
  printf("(schar)-1 == (uchar)255: %d  as bytes: %d\n", sc == uc, (unsigned char)sc == uc);
  unsigned big = 3000000000u;
  long long sum = big + 1000000000LL;
  unsigned wrapped = big + 2000000000u;
  printf("3e9u + 1e9LL = %lld, 3e9u + 2e9u = %u\n", sum, wrapped);
  int i = -7;
  unsigned d = 2;
  printf("-7 / 2u = %u, -7 / (int)2u = %d\n", i / d, i / (int)d);
  double dd = 0.1 + 0.2;
  printf("0.1+0.2 == 0.3: %d, int 3 == 3.0: %d, 7/2 * 2.0 = %.1f, 7/2.0*2 = %.1f\n", dd == 0.3, 3 == 3.0, 7 / 2 * 2.0, 7 / 2.0 * 2);
  int64_t a = INT64_C(1) << 40;
  int32_t b = 1 << 20;
  printf("mixed width product: %lld\n", (long long)(a / b * b));
  size_t len = 3;
  int idx = -1;
  printf("idx < len (unsigned compare): %d, idx < (int)len: %d\n", (size_t)idx < len, idx < (int)len);
  unsigned count = 0;
  for (int k = -5; k <= 5; k++) {
    unsigned uk = (unsigned)k;
    if (uk < 3u) count++;
    if (k < 3) count += 10;
  }
  printf("count=%u\n", count);
  char ch = 'A';
  int diff = ch - 'a';
  unsigned udiff = (unsigned)(ch - 'a');
  printf("diff=%d udiff=%u\n", diff, udiff);
  return (int)(count % 256);
}
