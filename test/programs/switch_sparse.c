/* Sparse switches: widely spaced and negative case values, 64-bit switch values,
   switch on char, switch on enum, and case ranges emulated by nested conditions. */
#include <stdio.h>

static int sparse(int x) {
  switch (x) {
  case -1000000: return 1;
  case -7: return 2;
  case 0: return 3;
  case 13: return 4;
  case 1024: return 5;
  case 65536: return 6;
  case 99999: return 7;
  case 2147483647: return 8;
  case -2147483647 - 1: return 9;
  default: return 0;
  }
}

static const char *http(long long code) {
  switch (code) {
  case 200: return "OK";
  case 201: return "Created";
  case 301: return "Moved";
  case 404: return "Not Found";
  case 500: return "Server Error";
  case 0x100000000LL: return "big";
  case -0x7fffffffffffffffLL: return "very negative";
  }
  return "unknown";
}

enum color { RED = 1, GREEN = 20, BLUE = 300, ALPHA = 4000 };

static unsigned mix(enum color c, unsigned v) {
  switch (c) {
  case RED: return v * 3;
  case GREEN: return v ^ 0xabcdu;
  case BLUE: return v >> 2;
  case ALPHA: return ~v;
  }
  return 0;
}

static int hexval(char c) {
  switch (c) {
  case '0': case '1': case '2': case '3': case '4':
  case '5': case '6': case '7': case '8': case '9': return c - '0';
  case 'a': case 'b': case 'c': case 'd': case 'e': case 'f': return c - 'a' + 10;
  case 'A': case 'B': case 'C': case 'D': case 'E': case 'F': return c - 'A' + 10;
  case 'x': case 'X': return -2;
  }
  return -1;
}

int main(void) {
  int probes[] = {-1000000, -7, 0, 13, 1024, 65536, 99999, 2147483647, -2147483647 - 1, 5, -8, 1025};
  int s = 0;
  for (unsigned i = 0; i < sizeof probes / sizeof probes[0]; i++) { int r = sparse(probes[i]); printf("%d ", r); s += r * (int)i; }
  printf("\n");
  long long codes[] = {200, 404, 500, 201, 302, 0x100000000LL, -0x7fffffffffffffffLL, 301};
  for (int i = 0; i < 8; i++) printf("%lld %s\n", codes[i], http(codes[i]));
  enum color cs[] = {RED, GREEN, BLUE, ALPHA};
  unsigned v = 12345;
  for (int r = 0; r < 10; r++) v = mix(cs[r % 4], v) + (unsigned)r;
  printf("mix=%u\n", v);
  const char *hex = "0x1F 7fA? Cafe";
  long value = 0; int bad = 0;
  for (const char *p = hex; *p; p++) {
    int h = hexval(*p);
    if (h >= 0) value = value * 16 + h; else bad++;
  }
  printf("hex value=%ld bad=%d\n", value, bad);
  return s;
}
