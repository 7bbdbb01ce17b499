// The example behind `npm start`: the first primes and a checksum, in plain C.
#include <stdio.h>

static int is_prime(int n) {
  if (n < 2) return 0;
  for (int d = 2; d * d <= n; d++)
    if (n % d == 0) return 0;
  return 1;
}

int main(void) {
  int count = 0, sum = 0;
  for (int n = 0; count < 20; n++) {
    if (is_prime(n)) {
      printf("%d ", n);
      count++;
      sum += n;
    }
  }
  printf("\nsum of the first %d primes: %d\n", count, sum);
  return sum % 256;
}
