/* Mutual recursion: even/odd, Hofstadter Female/Male sequences, and a recursive
   descent expression evaluator whose expr/term/factor functions call each other. */
#include <stdio.h>

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static int M(int n);
static int F(int n) { return n == 0 ? 1 : n - M(F(n - 1)); }
static int M(int n) { return n == 0 ? 0 : n - F(M(n - 1)); }

static const char *src;
static int err;
static long expr(void);

static void skip(void) { while (*src == ' ') src++; }

static long factor(void) {
  skip();
  if (*src == '(') {
    src++;
    long v = expr();
    skip();
    if (*src == ')') src++; else err = 1;
    return v;
  }
  if (*src == '-') { src++; return -factor(); }
  long v = 0;
  if (*src < '0' || *src > '9') { err = 1; return 0; }
  while (*src >= '0' && *src <= '9') v = v * 10 + (*src++ - '0');
  return v;
}

static long term(void) {
  long v = factor();
  for (;;) {
    skip();
    if (*src == '*') { src++; v *= factor(); }
    else if (*src == '/') { src++; long d = factor(); if (d == 0) { err = 2; return 0; } v /= d; }
    else if (*src == '%') { src++; long d = factor(); if (d == 0) { err = 2; return 0; } v %= d; }
    else return v;
  }
}

static long expr(void) {
  long v = term();
  for (;;) {
    skip();
    if (*src == '+') { src++; v += term(); }
    else if (*src == '-') { src++; v -= term(); }
    else return v;
  }
}

static const char *tests[] = {
  "1 + 2 * 3", "(1 + 2) * 3", "-(4 - 10) * (2 + -3)", "100 / 7 % 5", "((((((((9))))))))",
  "2 * (3 + 4 * (5 - 6 * (7 + 8)))", "17 / 0", "3 + * 4", "1000000 * 1000 - 999999999", "-7 % 3 + 7 / -2",
};

int main(void) {
  printf("even(1001)=%d odd(777)=%d even(5000)=%d\n", is_even(1001), is_odd(777), is_even(5000));
  for (int i = 0; i < 20; i++) printf("%d ", F(i));
  printf("\n");
  for (int i = 0; i < 20; i++) printf("%d ", M(i));
  printf("\n");
  int errors = 0;
  for (unsigned i = 0; i < sizeof tests / sizeof tests[0]; i++) {
    src = tests[i]; err = 0;
    long v = expr();
    skip();
    if (*src) err = err ? err : 3;
    if (err) { printf("%-36s error %d\n", tests[i], err); errors++; }
    else printf("%-36s = %ld\n", tests[i], v);
  }
  return 40 + errors;
}
