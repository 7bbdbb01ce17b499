/* Bit tricks in plain C: bit reversal, Gray code round trip, next permutation of
   bits (Gosper's hack) enumerating k-subsets, isolating and clearing lowest set bit,
   sign-free abs/min/max, power-of-two tests, and a tiny bitset. */
#include <stdio.h>
#include <stdint.h>

static uint32_t rev32(uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
  return (v >> 16) | (v << 16);
}
static uint32_t gray(uint32_t x) { return x ^ (x >> 1); }
static uint32_t ungray(uint32_t g) { for (uint32_t s = 1; s < 32; s <<= 1) g ^= g >> s; return g; }
static uint32_t next_comb(uint32_t v) {
  uint32_t t = v | (v - 1);
  return (t + 1) | (((~t & -~t) - 1) >> (__builtin_ctz(v) + 1));
}
static int is_pow2(uint64_t x) { return x && !(x & (x - 1)); }
static int32_t bmin(int32_t a, int32_t b) { return b ^ ((a ^ b) & -(a < b)); }
static int32_t bmax(int32_t a, int32_t b) { return a ^ ((a ^ b) & -(a < b)); }

static uint64_t bits[4];
static void bs_set(int i) { bits[i >> 6] |= 1ull << (i & 63); }
static int bs_get(int i) { return (int)(bits[i >> 6] >> (i & 63)) & 1; }

int main(void) {
  uint32_t tests[] = {1u, 0x80000000u, 0x12345678u, 0xf0f0f0f0u, 0u};
  for (int i = 0; i < 5; i++) printf("rev(%08x)=%08x\n", tests[i], rev32(tests[i]));
  int bad = 0;
  for (uint32_t i = 0; i < 1000; i++) {
    if (ungray(gray(i)) != i) bad++;
    if (i && __builtin_popcount(gray(i) ^ gray(i - 1)) != 1) bad++;
  }
  printf("gray bad=%d\n", bad);
  int combos = 0;
  uint32_t sumc = 0;
  for (uint32_t v = 0x7; v < (1u << 10); v = next_comb(v)) { combos++; sumc += v; }
  printf("3-subsets of 10: %d sum=%u\n", combos, sumc);
  uint32_t y = 0xb4u;
  printf("lowest=%x cleared=%x\n", y & -y, y & (y - 1));
  int p2 = 0;
  for (uint64_t k = 1; k < 5000; k += 3) p2 += is_pow2(k);
  printf("powers of two hit=%d is_pow2(2^40)=%d\n", p2, is_pow2(1ull << 40));
  int32_t pairs[][2] = {{3, 9}, {-5, 2}, {100, -100}, {7, 7}, {-2147483647, 2147483647}};
  for (int i = 0; i < 5; i++) printf("min=%d max=%d\n", bmin(pairs[i][0], pairs[i][1]), bmax(pairs[i][0], pairs[i][1]));
  for (int i = 0; i < 256; i += 7) bs_set(i);
  for (int i = 1; i < 256; i *= 3) bs_set(i);
  int cnt = 0;
  for (int i = 0; i < 256; i++) cnt += bs_get(i);
  printf("bitset count=%d words=%016llx %016llx\n", cnt, (unsigned long long)bits[0], (unsigned long long)bits[3]);
  return combos + cnt;
}
