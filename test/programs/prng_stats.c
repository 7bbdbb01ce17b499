/* Pseudo-random generators with exact integer arithmetic: xorshift64*, splitmix64,
   a 32-bit LCG, mulberry32 and a 16-bit Galois LFSR; chi-square style bucket counts,
   a Fisher-Yates shuffle, and the LFSR period. */
#include <stdio.h>
#include <stdint.h>

static uint64_t xs_state = 0x9E3779B97F4A7C15ull;
static uint64_t xorshift64star(void) {
  xs_state ^= xs_state >> 12; xs_state ^= xs_state << 25; xs_state ^= xs_state >> 27;
  return xs_state * 0x2545F4914F6CDD1Dull;
}
static uint64_t sm_state = 42;
static uint64_t splitmix64(void) {
  uint64_t z = (sm_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint32_t lcg_state = 1;
static uint32_t lcg(void) { return lcg_state = lcg_state * 1664525u + 1013904223u; }
static uint32_t mb_state = 7;
static uint32_t mulberry32(void) {
  uint32_t t = mb_state += 0x6D2B79F5u;
  t = (t ^ (t >> 15)) * (t | 1u);
  t ^= t + (t ^ (t >> 7)) * (t | 61u);
  return t ^ (t >> 14);
}

int main(void) {
  printf("xorshift64*: %016llx %016llx\n", (unsigned long long)xorshift64star(), (unsigned long long)xorshift64star());
  printf("splitmix64: %016llx %016llx\n", (unsigned long long)splitmix64(), (unsigned long long)splitmix64());
  printf("lcg: %u %u mulberry32: %u %u\n", lcg(), lcg(), mulberry32(), mulberry32());
  int buckets[4][10] = {{0}};
  for (int i = 0; i < 2000; i++) {
    buckets[0][xorshift64star() % 10]++;
    buckets[1][splitmix64() % 10]++;
    buckets[2][(lcg() >> 16) % 10]++;
    buckets[3][mulberry32() % 10]++;
  }
  const char *names[] = {"xorshift", "splitmix", "lcg", "mulberry"};
  for (int g = 0; g < 4; g++) {
    long chi = 0;
    for (int b = 0; b < 10; b++) { long d = buckets[g][b] - 200; chi += d * d; }
    printf("%-9s chi*200=%ld buckets:", names[g], chi);
    for (int b = 0; b < 10; b++) printf(" %d", buckets[g][b]);
    printf("\n");
  }
  int deck[52];
  for (int i = 0; i < 52; i++) deck[i] = i;
  for (int i = 51; i > 0; i--) { int j = (int)(splitmix64() % (uint64_t)(i + 1)); int t = deck[i]; deck[i] = deck[j]; deck[j] = t; }
  printf("shuffled:");
  for (int i = 0; i < 13; i++) printf(" %d", deck[i]);
  printf("\n");
  uint16_t lfsr = 0xACE1u;
  unsigned period = 0;
  do {
    unsigned lsb = lfsr & 1u;
    lfsr >>= 1;
    if (lsb) lfsr ^= 0xB400u;
    period++;
  } while (lfsr != 0xACE1u && period < 70000);
  printf("lfsr period=%u\n", period);
  return deck[0] + deck[1];
}
