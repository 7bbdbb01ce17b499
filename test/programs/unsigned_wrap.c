/* Wrapping unsigned arithmetic at 8, 16, 32 and 64 bits: overflow and underflow of
   unsigned types is defined modulo 2^N; narrow unsigned types promote to int first. */
#include <stdio.h>
#include <stdint.h>

static uint8_t add8(uint8_t a, uint8_t b) { return (uint8_t)(a + b); }
static uint16_t mul16(uint16_t a, uint16_t b) { return (uint16_t)((uint32_t)a * b); }
static uint32_t mul32(uint32_t a, uint32_t b) { return a * b; }
static uint64_t mul64(uint64_t a, uint64_t b) { return a * b; }

int main(void) {
  uint8_t x8 = 250;
  for (int i = 0; i < 10; i++) { x8 = add8(x8, 3); printf("%u ", x8); }
  printf("\n");
  uint8_t z = 0; z--; printf("u8 0-1 = %u\n", z);
  uint16_t z16 = 0; z16 -= 2; printf("u16 0-2 = %u\n", z16);
  uint32_t z32 = 0; z32 -= 3; printf("u32 0-3 = %u\n", z32);
  uint64_t z64 = 0; z64 -= 4; printf("u64 0-4 = %llu\n", (unsigned long long)z64);

  uint16_t h = 1;
  for (int i = 0; i < 12; i++) h = mul16(h, 7919);
  printf("u16 pow = %u\n", h);
  uint32_t w = 2166136261u;
  const char *msg = "wrapping arithmetic is defined for unsigned";
  for (const char *p = msg; *p; p++) { w ^= (uint8_t)*p; w = mul32(w, 16777619u); }
  printf("fnv1a32 = %08x\n", w);
  uint64_t q = 14695981039346656037ull;
  for (const char *p = msg; *p; p++) { q ^= (uint8_t)*p; q = mul64(q, 1099511628211ull); }
  printf("fnv1a64 = %016llx\n", (unsigned long long)q);

  /* unsigned comparisons and negation */
  unsigned a = 5, b = 7;
  printf("a-b=%u (a-b)>a=%d -a=%u\n", a - b, (a - b) > a, -a);
  unsigned long long big = 18446744073709551615ull;
  printf("max+1=%llu max*max=%llu max/3=%llu max%%1000=%llu\n", big + 1, big * big, big / 3, big % 1000);
  /* unsigned char promotes to (signed) int: ~c is negative int */
  unsigned char c = 0x0f;
  int nc = ~c;
  unsigned char back = (unsigned char)~c;
  printf("~c as int=%d as uchar=%u\n", nc, back);
  unsigned short us = 65535;
  unsigned int prod = (unsigned)us * us;   /* us*us alone would be int overflow */
  printf("us*us=%u\n", prod);
  uint32_t lcg = 12345;
  uint32_t sum = 0;
  for (int i = 0; i < 1000; i++) { lcg = lcg * 1103515245u + 12345u; sum += lcg >> 16; }
  printf("lcg=%u sum=%u\n", lcg, sum);
  return (int)(sum & 0x7f);
}
