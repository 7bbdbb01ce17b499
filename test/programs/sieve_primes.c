/* Number theory: sieve of Eratosthenes, trial-division factorisation, Euler's totient
   via the sieve, modular exponentiation with 64-bit intermediates, Miller-Rabin with
   fixed bases for 32-bit numbers, and twin-prime counting. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define LIMIT 20000
static unsigned char composite[LIMIT + 1];
static int phi[2001];

static uint64_t powmod(uint64_t b, uint64_t e, uint64_t m) {
  uint64_t r = 1 % m;
  b %= m;
  while (e) { if (e & 1) r = r * b % m; b = b * b % m; e >>= 1; }
  return r;
}

static int miller_rabin(uint32_t n) {
  if (n < 2) return 0;
  static const uint32_t bases[] = {2, 7, 61};
  for (int i = 0; i < 3; i++) if (n % bases[i] == 0) return n == bases[i];
  uint32_t d = n - 1; int s = 0;
  while (!(d & 1)) { d >>= 1; s++; }
  for (int i = 0; i < 3; i++) {
    uint64_t x = powmod(bases[i], d, n);
    if (x == 1 || x == n - 1) continue;
    int comp = 1;
    for (int r = 1; r < s; r++) { x = x * x % n; if (x == n - 1) { comp = 0; break; } }
    if (comp) return 0;
  }
  return 1;
}

static void factor(uint64_t n) {
  printf("%llu =", (unsigned long long)n);
  for (uint64_t p = 2; p * p <= n; p++)
    while (n % p == 0) { printf(" %llu", (unsigned long long)p); n /= p; }
  if (n > 1) printf(" %llu", (unsigned long long)n);
  printf("\n");
}

int main(void) {
  memset(composite, 0, sizeof composite);
  composite[0] = composite[1] = 1;
  for (int i = 2; i * i <= LIMIT; i++)
    if (!composite[i]) for (int j = i * i; j <= LIMIT; j += i) composite[j] = 1;
  int count = 0, twins = 0, last = 0;
  long long psum = 0;
  for (int i = 2; i <= LIMIT; i++) if (!composite[i]) { count++; psum += i; if (last && i - last == 2) twins++; last = i; }
  printf("primes<=%d: %d sum=%lld twins=%d largest=%d\n", LIMIT, count, psum, twins, last);
  for (int i = 0; i <= 2000; i++) phi[i] = i;
  for (int p = 2; p <= 2000; p++) if (phi[p] == p) for (int k = p; k <= 2000; k += p) phi[k] -= phi[k] / p;
  long long phisum = 0;
  for (int i = 1; i <= 2000; i++) phisum += phi[i];
  printf("phi(36)=%d phi(97)=%d phi(1024)=%d sum=%lld\n", phi[36], phi[97], phi[1024], phisum);
  int agree = 1;
  for (uint32_t n = 0; n <= 4000; n++) if (miller_rabin(n) != !composite[n]) agree = 0;
  printf("miller-rabin agrees with sieve up to 4000: %d\n", agree);
  uint32_t big[] = {2147483647u, 4294967291u, 4294967295u, 3215031751u, 1000000007u};
  for (int i = 0; i < 5; i++) printf("mr(%u)=%d\n", big[i], miller_rabin(big[i]));
  factor(600851475143ull);
  factor(9999999967ull * 3);
  factor(1ull << 40);
  printf("2^100 mod 1e9+7 = %llu\n", (unsigned long long)powmod(2, 100, 1000000007));
  return count % 256;
}
