/* Static local variables keep their value across calls: counters, a generator,
   memo tables local to a function, a static buffer returned from a function, and
   static locals with the same name in different functions. */
#include <stdio.h>

static int next_id(void) { static int id = 100; return id++; }
static int counter_a(void) { static int n; return ++n; }
static int counter_b(void) { static int n = 50; return n += 5; }

static unsigned rng(void) {
  static unsigned state = 2463534242u;
  state ^= state << 13; state ^= state >> 17; state ^= state << 5;
  return state;
}

static long long tri(int n) {
  static long long cache[64];
  static int filled;
  if (n < 0 || n >= 64) return -1;
  while (filled <= n) { cache[filled] = filled ? cache[filled - 1] + filled : 0; filled++; }
  return cache[n];
}

static const char *fmt_num(int v) {
  static char buf[16];
  int i = 15, neg = v < 0;
  unsigned u = neg ? 0u - (unsigned)v : (unsigned)v;
  buf[i] = 0;
  do { buf[--i] = (char)('0' + u % 10); u /= 10; } while (u);
  if (neg) buf[--i] = '-';
  return buf + i;
}

static int fib_next(void) {
  static int a = 0, b = 1;
  int r = a;
  int t = a + b; a = b; b = t;
  return r;
}

int main(void) {
  for (int i = 0; i < 5; i++) printf("id=%d ", next_id());
  printf("\n");
  int sa = 0, sb = 0;
  for (int i = 0; i < 10; i++) { sa += counter_a(); sb += counter_b(); }
  printf("sa=%d sb=%d next a=%d\n", sa, sb, counter_a());
  unsigned x = 0;
  for (int i = 0; i < 100; i++) x ^= rng();
  printf("rng xor=%u\n", x);
  printf("tri: %lld %lld %lld %lld\n", tri(10), tri(3), tri(63), tri(64));
  printf("fmt: %s ", fmt_num(-2147483647 - 1));
  printf("%s ", fmt_num(0));
  printf("%s\n", fmt_num(98765));
  int s = 0;
  for (int i = 0; i < 20; i++) s += fib_next();
  printf("fib sum=%d next=%d\n", s, fib_next());
  return sa + sb;
}
