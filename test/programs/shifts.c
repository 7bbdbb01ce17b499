/* Shifts at edge amounts: every amount stays below the width of the promoted type;
   left shifts only on unsigned or non-negative values whose result fits; right shift
   of negative signed values is arithmetic (implementation-defined, clang documents it). */
#include <stdio.h>
#include <stdint.h>

int main(void) {
  uint32_t u = 0x80000001u;
  for (int s = 0; s < 32; s += 5) printf("u<<%d=%08x u>>%d=%08x\n", s, u << s, s, u >> s);
  printf("u<<31=%08x u>>31=%08x\n", u << 31, u >> 31);
  uint64_t v = 0x8000000000000001ull;
  printf("v<<63=%016llx v>>63=%llu v>>32=%016llx\n", (unsigned long long)(v << 63),
         (unsigned long long)(v >> 63), (unsigned long long)(v >> 32));
  int neg = -1000;
  for (int s = 0; s < 32; s += 3) printf("%d>>%d=%d ", neg, s, neg >> s);
  printf("\n");
  int imin = INT32_MIN;
  printf("INT_MIN>>31=%d INT_MIN>>1=%d\n", imin >> 31, imin >> 1);
  long long lneg = -(1LL << 62);
  printf("lneg>>62=%lld lneg>>10=%lld\n", lneg >> 62, lneg >> 10);
  int pos = 1;
  printf("1<<30=%d 1<<0=%d\n", pos << 30, pos << 0);
  /* narrow values are promoted to int, so shifting a uint8_t by 8 is fine */
  uint8_t b = 0xab;
  printf("b<<8=%d b<<20=%d\n", b << 8, b << 20);
  uint16_t h16 = 0xbeef;
  printf("(uint16_t)(h16<<4)=%04x h16>>12=%x\n", (uint16_t)(h16 << 4), h16 >> 12);
  /* variable shift amounts masked to width */
  uint32_t acc = 0x12345678u;
  for (unsigned i = 0; i < 100; i++) {
    unsigned sh = (i * 7 + 3) & 31;
    acc ^= (acc << sh) | (acc >> ((32 - sh) & 31));
    acc += i;
  }
  printf("acc=%08x\n", acc);
  uint64_t acc64 = 0x0123456789abcdefull;
  for (unsigned i = 0; i < 100; i++) {
    unsigned sh = (i * 13 + 1) & 63;
    acc64 = (acc64 >> sh) ^ (acc64 << (63 - sh)) ^ i;
  }
  printf("acc64=%016llx\n", (unsigned long long)acc64);
  /* signed right shift used as floor division by a power of two */
  for (int x = -9; x <= 9; x += 3) printf("floor(%d/4)=%d trunc=%d\n", x, x >> 2, x / 4);
  return (int)(acc & 0x3f) + 1;
}
