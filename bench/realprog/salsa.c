/* The Salsa20/20 core (Bernstein's public specification), run over a counter block
   many times and checksummed. */
#include <stdio.h>
#include <stdint.h>

#define ROTL(a, b) (((a) << (b)) | ((a) >> (32 - (b))))
#define QR(a, b, c, d) (b ^= ROTL(a + d, 7), c ^= ROTL(b + a, 9), d ^= ROTL(c + b, 13), a ^= ROTL(d + c, 18))

static void salsa20_core(uint32_t out[16], const uint32_t in[16]) {
  uint32_t x[16];
  for (int i = 0; i < 16; i++) x[i] = in[i];
  for (int i = 0; i < 20; i += 2) {
    QR(x[0], x[4], x[8], x[12]);
    QR(x[5], x[9], x[13], x[1]);
    QR(x[10], x[14], x[2], x[6]);
    QR(x[15], x[3], x[7], x[11]);
    QR(x[0], x[1], x[2], x[3]);
    QR(x[5], x[6], x[7], x[4]);
    QR(x[10], x[11], x[8], x[9]);
    QR(x[15], x[12], x[13], x[14]);
  }
  for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

int main(void) {
  uint32_t in[16], out[16];
  for (int i = 0; i < 16; i++) in[i] = 0x61707865u * (uint32_t)(i + 1);
  uint32_t h = 0;
  for (int blk = 0; blk < 3000; blk++) {
    in[8] = (uint32_t)blk;
    salsa20_core(out, in);
    for (int i = 0; i < 16; i++) h = (h ^ out[i]) * 16777619u;
  }
  printf("%08x\n", h);
  return 0;
}
