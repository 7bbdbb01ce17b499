/* Arbitrary-precision unsigned arithmetic in base 10^4 limbs: factorial of 60,
   2^256, Fibonacci(300), and a multiplication check (a*b compared with repeated
   addition of small factors). */
#include <stdio.h>
#include <string.h>

#define LIMBS 120
#define BASE 10000

typedef struct { int n; unsigned short d[LIMBS]; } big;

static void set_small(big *a, unsigned v) { a->n = 0; memset(a->d, 0, sizeof a->d); while (v) { a->d[a->n++] = (unsigned short)(v % BASE); v /= BASE; } }
static void mul_small(big *a, unsigned m) {
  unsigned carry = 0;
  for (int i = 0; i < a->n; i++) { unsigned t = a->d[i] * m + carry; a->d[i] = (unsigned short)(t % BASE); carry = t / BASE; }
  while (carry) { a->d[a->n++] = (unsigned short)(carry % BASE); carry /= BASE; }
}
static void add(big *r, const big *a, const big *b) {
  int n = a->n > b->n ? a->n : b->n;
  unsigned carry = 0;
  big t;
  memset(&t, 0, sizeof t);
  for (int i = 0; i < n; i++) {
    unsigned s = (i < a->n ? a->d[i] : 0u) + (i < b->n ? b->d[i] : 0u) + carry;
    t.d[i] = (unsigned short)(s % BASE); carry = s / BASE;
  }
  t.n = n;
  if (carry) t.d[t.n++] = (unsigned short)carry;
  *r = t;
}
static void mul(big *r, const big *a, const big *b) {
  unsigned long long acc[2 * LIMBS];
  memset(acc, 0, sizeof acc);
  for (int i = 0; i < a->n; i++) for (int j = 0; j < b->n; j++) acc[i + j] += (unsigned long long)a->d[i] * b->d[j];
  big t;
  memset(&t, 0, sizeof t);
  unsigned long long carry = 0;
  int n = a->n + b->n;
  for (int i = 0; i < n; i++) { unsigned long long v = acc[i] + carry; t.d[i] = (unsigned short)(v % BASE); carry = v / BASE; }
  t.n = n;
  while (t.n > 0 && t.d[t.n - 1] == 0) t.n--;
  *r = t;
}
static void print(const char *label, const big *a) {
  printf("%s = ", label);
  if (a->n == 0) { printf("0\n"); return; }
  printf("%d", a->d[a->n - 1]);
  for (int i = a->n - 2; i >= 0; i--) printf("%04d", a->d[i]);
  printf(" (%d limbs)\n", a->n);
}
static int digit_sum(const big *a) { int s = 0; for (int i = 0; i < a->n; i++) { int v = a->d[i]; while (v) { s += v % 10; v /= 10; } } return s; }
static int equal(const big *a, const big *b) {
  if (a->n != b->n) return 0;
  for (int i = 0; i < a->n; i++) if (a->d[i] != b->d[i]) return 0;
  return 1;
}

int main(void) {
  big f; set_small(&f, 1);
  for (unsigned i = 2; i <= 60; i++) mul_small(&f, i);
  print("60!", &f);
  big p; set_small(&p, 1);
  for (int i = 0; i < 256; i++) mul_small(&p, 2);
  print("2^256", &p);
  big a, b, c; set_small(&a, 0); set_small(&b, 1);
  for (int i = 0; i < 300; i++) { add(&c, &a, &b); a = b; b = c; }
  print("fib(300)", &a);
  big sq; mul(&sq, &p, &p);
  big p512; set_small(&p512, 1);
  for (int i = 0; i < 512; i++) mul_small(&p512, 2);
  printf("2^256 squared equals 2^512: %d\n", equal(&sq, &p512));
  big x; set_small(&x, 123456789u);
  big y; mul(&y, &x, &x); mul(&y, &y, &x);
  print("123456789^3", &y);
  int ds = digit_sum(&f);
  printf("digit sums: %d %d %d\n", ds, digit_sum(&p), digit_sum(&a));
  return ds % 256;
}
