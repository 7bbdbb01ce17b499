/* Benchmark: bit manipulation on uint32 and uint8 (table-driven and bitwise CRC-32, popcounts). */
#include <stdio.h>
#include <stdint.h>

static uint32_t table[256];

int main(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  static uint8_t buf[65536];
  uint32_t s = 1;
  for (int i = 0; i < 65536; i++) { s = s * 1103515245u + 12345u; buf[i] = (uint8_t)(s >> 16); }
  uint32_t crc = 0xFFFFFFFFu, crc2 = 0xFFFFFFFFu;
  for (int rep = 0; rep < 20; rep++) {
    for (int i = 0; i < 65536; i++) crc = table[(crc ^ buf[i]) & 0xFF] ^ (crc >> 8);
  }
  for (int i = 0; i < 65536; i++) {
    crc2 ^= buf[i];
    for (int k = 0; k < 8; k++) crc2 = (crc2 >> 1) ^ (0xEDB88320u & (0u - (crc2 & 1)));
  }
  unsigned pop = 0;
  for (uint32_t x = 0; x < 2000000; x += 3) { uint32_t v = x * 2654435761u; while (v) { v &= v - 1; pop++; } }
  printf("%08x %08x %u\n", ~crc, ~crc2, pop);
  return 0;
}
