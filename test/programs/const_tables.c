/* Constant lookup tables used in loops: a CRC-32 table built at startup and a
   const table of month lengths, a const S-box permutation, Roman numerals with
   parallel const arrays, and a const 2-D keypad. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static uint32_t crc_table[256];
static const unsigned char month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
static const unsigned char sbox[16] = {0xE, 0x4, 0xD, 0x1, 0x2, 0xF, 0xB, 0x8, 0x3, 0xA, 0x6, 0xC, 0x5, 0x9, 0x0, 0x7};
static const int roman_val[] = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
static const char *const roman_sym[] = {"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"};
static const char keypad[4][3] = {{'1', '2', '3'}, {'4', '5', '6'}, {'7', '8', '9'}, {'*', '0', '#'}};

static void make_crc(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}
static uint32_t crc32(const char *s, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++) c = crc_table[(c ^ (uint8_t)s[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}
static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static int day_of_year(int y, int m, int d) {
  int n = d;
  for (int i = 0; i < m - 1; i++) n += month_days[i] + (i == 1 && leap(y));
  return n;
}
static void roman(int n, char *out) {
  out[0] = 0;
  for (int i = 0; i < 13; i++)
    while (n >= roman_val[i]) { n -= roman_val[i]; memcpy(out + strlen(out), roman_sym[i], strlen(roman_sym[i]) + 1); }
}

int main(void) {
  make_crc();
  const char *msg = "The quick brown fox jumps over the lazy dog";
  printf("crc32=%08x crc32('123456789')=%08x\n", crc32(msg, strlen(msg)), crc32("123456789", 9));
  int dates[][3] = {{2024, 3, 1}, {2023, 12, 31}, {1900, 3, 1}, {2000, 3, 1}};
  for (int i = 0; i < 4; i++) printf("doy(%d-%d-%d)=%d\n", dates[i][0], dates[i][1], dates[i][2], day_of_year(dates[i][0], dates[i][1], dates[i][2]));
  uint16_t block = 0x1234;
  for (int round = 0; round < 4; round++) {
    uint16_t o = 0;
    for (int n = 0; n < 4; n++) o |= (uint16_t)(sbox[(block >> (4 * n)) & 0xF] << (4 * n));
    block = (uint16_t)((o << 5) | (o >> 11));
  }
  printf("sbox rounds -> %04x\n", block);
  int years[] = {1994, 2024, 3999, 444, 9};
  char buf[32];
  for (int i = 0; i < 5; i++) { roman(years[i], buf); printf("%d=%s ", years[i], buf); }
  printf("\n");
  const char *digits = "8675309#";
  int moves = 0, pr = 0, pc = 0;
  for (const char *p = digits; *p; p++)
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 3; c++)
        if (keypad[r][c] == *p) { moves += (r > pr ? r - pr : pr - r) + (c > pc ? c - pc : pc - c); pr = r; pc = c; }
  printf("keypad moves=%d\n", moves);
  return (int)(crc32(msg, strlen(msg)) & 0xff);
}
