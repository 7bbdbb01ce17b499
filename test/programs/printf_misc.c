/* Output primitives other than plain printf: puts (appends a newline), putchar,
   printing pointers only as NULL comparisons (never addresses), boolean results,
   building numbers digit by digit with putchar. */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>

static void put_uint(unsigned long long v) {
  char buf[24];
  int n = 0;
  do { buf[n++] = (char)('0' + v % 10); v /= 10; } while (v);
  while (n) putchar(buf[--n]);
}

static void put_int(long long v) {
  if (v < 0) { putchar('-'); put_uint(0ull - (unsigned long long)v); }
  else put_uint((unsigned long long)v);
}

static void put_hex(unsigned v, int width) {
  for (int s = (width - 1) * 4; s >= 0; s -= 4) putchar("0123456789abcdef"[(v >> s) & 15]);
}

int main(void) {
  puts("puts adds a newline");
  puts("");
  puts("after an empty line");
  int r = putchar('X');
  putchar('\n');
  printf("putchar returned %d\n", r);
  long long nums[] = {0, 7, -7, 1234567890123LL, -9223372036854775807LL - 1, 9223372036854775807LL};
  for (int i = 0; i < 6; i++) { put_int(nums[i]); putchar(i == 5 ? '\n' : ' '); }
  for (unsigned v = 1; v < 0x10000000u; v = v * 13 + 5) { put_hex(v, 8); putchar(' '); }
  putchar('\n');
  int *p = NULL;
  int *q = malloc(4 * sizeof *q);
  printf("p==NULL: %d, q==NULL: %d, q!=p: %d\n", p == NULL, q == NULL, q != p);
  bool flags[] = {true, false, 1 == 1, 2 < 1};
  for (int i = 0; i < 4; i++) printf("flag%d=%d ", i, flags[i]);
  putchar('\n');
  const char *sp = NULL;
  printf("string or default: %s\n", sp ? sp : "(default)");
  char line[40];
  int k = 0;
  for (char c = 'a'; c <= 'z'; c += 2) line[k++] = c;
  line[k] = '\0';
  puts(line);
  for (int row = 1; row <= 5; row++) {
    for (int s = 0; s < 5 - row; s++) putchar(' ');
    for (int s = 0; s < 2 * row - 1; s++) putchar('*');
    putchar('\n');
  }
  free(q);
  return k + 100;
}
