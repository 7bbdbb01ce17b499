/* Benchmark: integer matrix multiply (i-k-j order and naive i-j-k order) on
   uint32 matrices with wrapping arithmetic, then a checksum. Exercises loop nests,
   2-D address computation, LICM of row pointers and strength reduction. */
#include <stdio.h>
#include <stdint.h>

#define N 96

static uint32_t a[N][N], b[N][N], c[N][N], d[N][N];

int main(void) {
  uint32_t s = 12345;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      s = s * 1664525u + 1013904223u; a[i][j] = s >> 20;
      s = s * 1664525u + 1013904223u; b[i][j] = s >> 20;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      uint32_t t = 0;
      for (int k = 0; k < N; k++) t += a[i][k] * b[k][j];
      c[i][j] = t;
    }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) {
      uint32_t aik = a[i][k];
      for (int j = 0; j < N; j++) d[i][j] += aik * b[k][j];
    }
  uint32_t h = 0;
  int same = 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      h = h * 31u + c[i][j];
      if (c[i][j] != d[i][j]) same = 0;
    }
  printf("checksum=%u same=%d c[7][9]=%u\n", h, same, c[7][9]);
  return (int)(h % 256);
}
