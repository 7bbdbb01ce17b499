/* Bit-manipulation builtins against portable loops: __builtin_popcount(ll),
   __builtin_clz(ll), __builtin_ctz(ll), __builtin_bswap16/32/64, and rotations
   written as (x << r) | (x >> (32 - r)) which -O2 turns into llvm.fshl.
   clz/ctz are only called on nonzero values (zero is undefined). */
#include <stdio.h>
#include <stdint.h>

static int pop_loop(uint32_t x) { int n = 0; while (x) { x &= x - 1; n++; } return n; }
static int clz_loop(uint32_t x) { int n = 0; for (uint32_t m = 0x80000000u; m && !(x & m); m >>= 1) n++; return n; }
static int ctz_loop(uint32_t x) { int n = 0; while (!(x & 1)) { x >>= 1; n++; } return n; }
static uint32_t bswap_loop(uint32_t x) { return (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24); }
static uint32_t rotl(uint32_t x, unsigned r) { r &= 31; return r ? (x << r) | (x >> (32 - r)) : x; }
static uint32_t rotr(uint32_t x, unsigned r) { return (x >> (r & 31)) | (x << ((32 - r) & 31)); }
static uint64_t rotl64(uint64_t x, unsigned r) { return (x << (r & 63)) | (x >> ((64 - r) & 63)); }

int main(void) {
  uint32_t x = 0x12345679u;
  int mismatches = 0;
  unsigned long long h = 0;
  for (int i = 0; i < 400; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    uint32_t y = x >> (i % 32);
    if (y == 0) y = 1;
    int p = __builtin_popcount(y), c = __builtin_clz(y), t = __builtin_ctz(y);
    uint32_t b = __builtin_bswap32(y);
    if (p != pop_loop(y) || c != clz_loop(y) || t != ctz_loop(y) || b != bswap_loop(y)) mismatches++;
    h = h * 131 + (unsigned)(p * 1024 + c * 32 + t) + b;
  }
  printf("mismatches=%d h=%llu\n", mismatches, h);
  uint64_t v = 0x0123456789abcdefull;
  printf("popcountll=%d clzll=%d ctzll=%d bswap64=%016llx\n", __builtin_popcountll(v), __builtin_clzll(v),
         __builtin_ctzll(v << 4), (unsigned long long)__builtin_bswap64(v));
  printf("bswap16=%04x\n", __builtin_bswap16((uint16_t)0xbeef));
  uint32_t r = 0xdeadbeefu;
  for (unsigned k = 0; k < 40; k += 7) printf("rotl %u=%08x rotr %u=%08x\n", k, rotl(r, k), k, rotr(r, k));
  uint64_t r64 = 0xfedcba9876543210ull;
  for (unsigned k = 0; k < 70; k += 13) printf("rotl64 %u=%016llx\n", k, (unsigned long long)rotl64(r64, k));
  unsigned highest[] = {1, 2, 3, 255, 256, 0x80000000u, 0x7fffffffu};
  for (int i = 0; i < 7; i++) printf("log2(%u)=%d ", highest[i], 31 - __builtin_clz(highest[i]));
  printf("\n");
  int parity = __builtin_parity(0x1234567u);
  printf("parity=%d\n", parity);
  return mismatches + (int)(h & 0x7f);
}
