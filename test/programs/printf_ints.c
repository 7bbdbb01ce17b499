/* printf integer conversions: d i u x X c s, length modifiers l ll,
   widths, precisions, the flags - + 0 space #, %% and printf's return value. */
#include <stdio.h>
#include <limits.h>

int main(void) {
  int vals[] = {0, 1, -1, 42, -42, 255, 65535, INT_MAX, INT_MIN, 1000000};
  int total = 0;
  for (unsigned i = 0; i < sizeof vals / sizeof vals[0]; i++) {
    int v = vals[i];
    total += printf("[%d] [%i] [%5d] [%-5d|] [%05d] [%+d] [% d] [%.3d] [%8.4d]\n", v, v, v, v, v, v, v, v, v);
    total += printf("[%u] [%x] [%X] [%#x] [%08x] [%-10X|] [%#X]\n", (unsigned)v, (unsigned)v, (unsigned)v,
                    (unsigned)v, (unsigned)v, (unsigned)v, (unsigned)v);
  }
  long l = -1234567890123L;
  unsigned long ul = 18446744073709551615UL;
  long long ll = LLONG_MIN;
  unsigned long long ull = 0xdeadbeefcafebabeULL;
  total += printf("%ld %lu %lx %lld %llu %llx %llX\n", l, ul, ul, ll, ull, ull, ull);
  total += printf("[%20ld] [%-20lld|] [%+lld] [%020llu]\n", l, ll + 1, 5LL, ull);
  short sh = -5; unsigned char uc = 200;
  total += printf("short=%d ushort=%u schar=%d uchar=%u\n", sh, (unsigned short)sh, (signed char)-3, uc);
  total += printf("chars: [%c] [%3c] [%-3c] [%c%c%c]\n", 'A', 'b', 'c', 'x', 'y', 'z');
  total += printf("strings: [%s] [%10s] [%-10s] [%.3s] [%8.2s] [%s]\n", "abc", "right", "left", "truncate", "xy", "");
  total += printf("percent: 100%% %d%%\n", 50);
  total += printf("zero precision zero: [%.0d] [%.0x] [%5.0d]\n", 0, 0u, 0);
  total += printf("mixed: %d-%s-%c-%u-%x-%lld\n", -7, "mid", '!', 7u, 255u, -9LL);
  int n = printf("%s", "");
  total += printf("empty printf returned %d\n", n);
  printf("total chars printed = %d\n", total);
  return total % 256;
}
