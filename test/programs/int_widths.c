/* Integer arithmetic at every width and signedness: truncation on store,
   sign/zero extension on load, integer promotions, mixed-width expressions. */
#include <stdio.h>
#include <limits.h>

static signed char sc_vals[] = {0, 1, -1, 127, -128, 100, -100};
static unsigned char uc_vals[] = {0, 1, 255, 128, 127, 200};
static short ss_vals[] = {0, 1, -1, 32767, -32768, 12345, -12345};
static unsigned short us_vals[] = {0, 1, 65535, 32768, 40000};

static long long mix(signed char a, unsigned char b, short c, unsigned short d) {
  /* all promoted to int before the arithmetic, so none of these can overflow */
  int t = a * b + c - d;
  long long w = (long long)t * 3 + (a ^ c) - (b | d);
  return w;
}

static unsigned int trunc_chain(long long x) {
  signed char c = (signed char)x;            /* implementation-defined, modulo 2^8 in clang */
  short s = (short)x;
  int i = (int)x;
  unsigned char uc = (unsigned char)x;
  unsigned short us = (unsigned short)x;
  printf("  trunc %lld -> c=%d s=%d i=%d uc=%u us=%u\n", x, c, s, i, uc, us);
  return (unsigned)c + (unsigned)s + (unsigned)i + uc + us;
}

int main(void) {
  long long acc = 0;
  for (unsigned i = 0; i < sizeof sc_vals; i++)
    for (unsigned j = 0; j < sizeof uc_vals; j++) {
      long long m = mix(sc_vals[i], uc_vals[j], ss_vals[(i + j) % 7], us_vals[(i * j) % 5]);
      acc = acc * 31 + m;
      acc &= 0xffffffffffffLL;
    }
  printf("mix acc = %lld\n", acc);

  unsigned int u = 0;
  long long probes[] = {0, 255, 256, -1, 65535, 65536, -129, 2147483647LL, 2147483648LL,
                        -2147483648LL, 4294967295LL, 0x123456789abcLL, -0x7edcba987654LL};
  for (unsigned k = 0; k < sizeof probes / sizeof probes[0]; k++) u = u * 17 + trunc_chain(probes[k]);
  printf("trunc checksum = %u\n", u);

  /* widening: signed char -> long long keeps sign, unsigned char does not */
  signed char m1 = -1;
  unsigned char f = 0xff;
  long long a = m1, b = f;
  unsigned long long c = (unsigned long long)m1;
  printf("widen: %lld %lld %llu\n", a, b, c);

  /* limits */
  printf("limits: %d %d %d %u %d %d %u\n", SCHAR_MIN, SCHAR_MAX, CHAR_BIT, UCHAR_MAX, SHRT_MIN, SHRT_MAX, USHRT_MAX);
  printf("limits: %d %d %u\n", INT_MIN, INT_MAX, UINT_MAX);
  printf("limits: %ld %ld %lu\n", LONG_MIN, LONG_MAX, ULONG_MAX);
  printf("limits: %lld %lld %llu\n", LLONG_MIN, LLONG_MAX, ULLONG_MAX);

  /* short arithmetic stored back wraps (conversion, not overflow) */
  short s = 30000;
  for (int k = 0; k < 5; k++) { s = (short)(s + 10000); printf("s=%d ", s); }
  printf("\n");
  long l = 1;
  for (int k = 0; k < 40; k++) l = l * 3 % 1000000007L;
  printf("pow3 mod p = %ld\n", l);
  long long big = LLONG_MAX / 7;
  big = big * 6 + big / 2;
  printf("big = %lld\n", big);
  return (int)(acc % 200) + 5;
}
