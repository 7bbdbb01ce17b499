/* Reverse Polish calculator reading tokens with scanf("%s") from rpn_calc.in: one
   expression per line terminated by '=', integers parsed by hand, errors reported
   (division by zero, stack underflow, unknown token) and recovered from. */
#include <stdio.h>
#include <string.h>

static long long st[32];
static int sp;
static int errors;

static int parse_int(const char *s, long long *out) {
  int neg = 0;
  if (*s == '-' && s[1]) { neg = 1; s++; }
  if (!*s) return 0;
  long long v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    if (v > 100000000000000LL) return 0;
    v = v * 10 + (*s - '0');
  }
  *out = neg ? -v : v;
  return 1;
}

static int apply(const char *tok) {
  if (strlen(tok) != 1) return 0;
  if (sp < 2) { printf("  underflow at '%s'\n", tok); return -1; }
  long long b = st[--sp], a = st[--sp], r;
  switch (tok[0]) {
  case '+': r = a + b; break;
  case '-': r = a - b; break;
  case '*': r = a * b; break;
  case '/': if (b == 0) { printf("  division by zero\n"); return -1; } r = a / b; break;
  case '%': if (b == 0) { printf("  modulo by zero\n"); return -1; } r = a % b; break;
  case '^': { r = 1; for (long long i = 0; i < b && i < 40; i++) r *= a; break; }
  default: sp += 2; return 0;
  }
  st[sp++] = r;
  return 1;
}

int main(void) {
  char tok[64];
  int exprs = 0, failed = 0;
  long long last = 0, total = 0;
  sp = 0;
  while (scanf("%s", tok) == 1) {
    long long v;
    if (strcmp(tok, "=") == 0) {
      exprs++;
      if (failed || sp != 1) { printf("expr %d: error (stack %d)\n", exprs, sp); errors++; }
      else { last = st[0]; total += last; printf("expr %d: %lld\n", exprs, last); }
      sp = 0; failed = 0;
      continue;
    }
    if (failed) continue;
    if (strcmp(tok, "dup") == 0) { if (sp < 1) failed = 1; else { st[sp] = st[sp - 1]; sp++; } continue; }
    if (strcmp(tok, "swap") == 0) { if (sp < 2) failed = 1; else { long long t = st[sp - 1]; st[sp - 1] = st[sp - 2]; st[sp - 2] = t; } continue; }
    if (parse_int(tok, &v)) { if (sp >= 32) failed = 1; else st[sp++] = v; continue; }
    int r = apply(tok);
    if (r == 0) { printf("  unknown token '%s'\n", tok); failed = 1; }
    else if (r < 0) failed = 1;
  }
  printf("expressions=%d errors=%d total=%lld last=%lld\n", exprs, errors, total, last);
  return exprs * 10 + errors;
}
