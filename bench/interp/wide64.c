/* Benchmark: 64-bit arithmetic that wraps (FNV-1a and splitmix64 over uint64_t) — values
   beyond 2^53 take the interpreter's bigint path. */
#include <stdio.h>
#include <stdint.h>

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int main(void) {
  uint64_t s = 42, acc = 0;
  for (int i = 0; i < 200000; i++) acc ^= splitmix(&s);
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < 300000; i++) { h ^= (uint64_t)(i & 0xff); h *= 1099511628211ull; }
  long long sum = 0;
  for (long long i = 0; i < 2000000; i++) sum += i * i % 1000003;
  printf("%016llx %016llx %lld\n", (unsigned long long)acc, (unsigned long long)h, sum);
  return 0;
}
