/* Bit reversal of 32-bit words, a loop per bit, as FFT set-up code does it; summed over
   a range so the work cannot be skipped. */
#include <stdio.h>

static unsigned reverse_bits(unsigned v, int bits) {
  unsigned r = 0;
  for (int i = 0; i < bits; i++) {
    r = (r << 1) | (v & 1);
    v >>= 1;
  }
  return r;
}

int main(void) {
  unsigned sum = 0;
  for (unsigned v = 0; v < 40000; v++) sum += reverse_bits(v * 2654435761u, 32) ^ reverse_bits(v, 16);
  printf("%u\n", sum);
  return 0;
}
