/**
 * The C library subset against glibc (native executables built by clang-19): strings and
 * memory functions, conversions, scanf, rand/srand, qsort/bsearch, sprintf, ctype (which
 * -O2 turns into __ctype_b_loc table lookups), variadic functions (va_list), math.
 */
import { describe, it } from 'vitest';
import { CLANG, hasTool } from '../helpers/llvm.js';
import { expectSameAsNative } from './native.js';

const haveClang = hasTool(CLANG);

// Reason: needs clang-19 to build the native reference (apt-get install clang-19); without it the test is reported as skipped.
describe.skipIf(!haveClang)('libc matches glibc', () => {
  it('string and memory functions', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(void) {
  char a[64] = "hello", b[64];
  strcpy(b, a); strcat(b, ", world"); printf("%s %zu\n", b, strlen(b));
  printf("%d %d %d %d\n", strcmp("abc", "abd") < 0, strcmp("b", "a") > 0, strncmp("abcx", "abcy", 3), strcmp("", ""));
  printf("%s|%s|%s\n", strchr(b, 'w'), strrchr(b, 'l'), strstr(b, "lo, "));
  printf("%p %p\n", (void *)strchr(b, 'z'), (void *)strstr(b, "zz"));
  char c[10]; memset(c, 'x', 9); c[9] = 0; strncpy(c, "ab", 5); printf("%d %d %d %c\n", c[0], c[2], c[4], c[5]);
  memmove(b + 2, b, 5); printf("%s\n", b);
  printf("%d %d\n", memcmp("abc", "abd", 3) < 0, memcmp("abc", "abc", 3));
  char *d = strdup("dup"); printf("%s\n", d); free(d);
  char e[20] = "x"; strncat(e, "yzw", 2); printf("%s\n", e);
  const char *m = memchr("abcdef", 'd', 6); printf("%s\n", m);
  return 0;
}`, 'strings.c');
  });
  it('atoi, strtol, strtoul, strtod, abs', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  printf("%d %d %d %d\n", atoi("42"), atoi("  -17xyz"), atoi("+5"), atoi("abc"));
  char *end;
  long v = strtol("0x1fz", &end, 0); printf("%ld %s\n", v, end);
  v = strtol("777", &end, 8); printf("%ld %s\n", v, end);
  v = strtol("99999999999999999999", &end, 10); printf("%ld\n", v);
  unsigned long u = strtoul("-1", &end, 10); printf("%lu\n", u);
  double d = strtod(" 3.25e2rest", &end); printf("%g %s\n", d, end);
  printf("%g %g\n", atof("1e-3"), strtod("0x1.8p1", NULL));
  printf("%d %ld %lld\n", abs(-5), labs(-7L), llabs(-9000000000LL));
  return 0;
}`, 'conv.c');
  });
  it('scanf: %d %i %u %x %c %s %f %lf %lld %[ ] %n, counts and EOF', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
int main(void) {
  int a, b, n; unsigned u; char c, s[32], set[32]; float f; double d; long long ll; int x, i;
  int r = scanf("%d %i %u %x", &a, &b, &u, &x); printf("%d: %d %d %u %d\n", r, a, b, u, x);
  r = scanf(" %c%s", &c, s); printf("%d: %c %s\n", r, c, s);
  r = scanf("%f %lf %lld", &f, &d, &ll); printf("%d: %.3f %.6f %lld\n", r, f, d, ll);
  r = scanf(" %[a-z]%n", set, &n); printf("%d: %s %d\n", r, set, n);
  r = scanf("%d", &i); printf("%d\n", r);
  r = scanf("%s", s); printf("%d %s\n", r, s);
  r = scanf("%d", &i); printf("%d\n", r);
  return 0;
}`, 'scanf.c', '12 0x1F 4000000000 ff\n  Zword  3.5 -2.25e-3 -9000000000\nabcdef123 xyz\nlast\n');
  });
  it('rand/srand (glibc TYPE_3), qsort (stable), bsearch', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
#include <stdlib.h>
struct p { int k, v; };
static int cmp(const void *a, const void *b) { return ((const struct p *)a)->k - ((const struct p *)b)->k; }
static int icmp(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
int main(void) {
  for (int i = 0; i < 5; i++) printf("%d ", rand());
  printf("\n");
  srand(12345);
  for (int i = 0; i < 5; i++) printf("%d ", rand() % 1000);
  printf("\n");
  srand(0);
  printf("%d\n", rand());
  struct p arr[40];
  for (int i = 0; i < 40; i++) { arr[i].k = rand() % 7; arr[i].v = i; }
  qsort(arr, 40, sizeof arr[0], cmp);
  for (int i = 0; i < 40; i++) printf("%d:%d ", arr[i].k, arr[i].v);
  printf("\n");
  int xs[100];
  for (int i = 0; i < 100; i++) xs[i] = (i * 37) % 101;
  qsort(xs, 100, sizeof xs[0], icmp);
  int key = 55; int *hit = bsearch(&key, xs, 100, sizeof xs[0], icmp);
  key = 1000; int *miss = bsearch(&key, xs, 100, sizeof xs[0], icmp);
  printf("%d %d %d\n", xs[0], hit ? *hit : -1, miss == NULL);
  return 0;
}`, 'rand.c');
  });
  it('sprintf, snprintf, puts, putchar, fputs/fprintf to stdout', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
int main(void) {
  char buf[64];
  int n = sprintf(buf, "%d-%s-%.2f", 7, "x", 2.5); printf("%d [%s]\n", n, buf);
  n = snprintf(buf, 5, "%s", "abcdefgh"); printf("%d [%s]\n", n, buf);
  n = snprintf(NULL, 0, "%d", 123456); printf("%d\n", n);
  printf("%d\n", puts("puts"));
  printf("%d\n", putchar('c'));
  fputs("fputs\n", stdout);
  fprintf(stdout, "fprintf %d\n", 3);
  fputc('!', stdout); putc('\n', stdout);
  fwrite("fwrite\n", 1, 7, stdout);
  return 0;
}`, 'sprintf.c');
  });
  it('ctype functions (table lookups at -O2)', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
#include <ctype.h>
int main(void) {
  for (int c = -1; c < 130; c++)
    printf("%d%d%d%d%d%d%d%d%d%c%c", !!isdigit(c), !!isalpha(c), !!isspace(c), !!isupper(c), !!islower(c), !!isalnum(c), !!ispunct(c), !!isxdigit(c), !!isprint(c),
      c >= 32 && c < 127 ? toupper(c) : '.', c >= 32 && c < 127 ? tolower(c) : '.');
  printf("\n");
  return 0;
}`, 'ctype.c');
  });
  it('user-defined variadic functions and vprintf/vsnprintf', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
#include <stdarg.h>
static double sum(int n, ...) {
  va_list ap; va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) { if (i % 2) s += va_arg(ap, double); else s += va_arg(ap, int); }
  va_end(ap);
  return s;
}
static long long lsum(int n, ...) {
  va_list ap, aq; va_start(ap, n); va_copy(aq, ap);
  long long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long long);
  for (int i = 0; i < n; i++) s += va_arg(aq, long long);
  va_end(ap); va_end(aq);
  return s;
}
static void say(const char *fmt, ...) {
  va_list ap; va_start(ap, fmt); vprintf(fmt, ap); va_end(ap);
  char buf[32];
  va_start(ap, fmt); int n = vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap);
  printf("[%d %s]\n", n, buf);
}
int main(void) {
  printf("%g\n", sum(6, 1, 2.5, 3, 4.25, 5, 0.125));
  printf("%g\n", sum(12, 1, 1.0, 2, 2.0, 3, 3.0, 4, 4.0, 5, 5.0, 6, 6.0));
  printf("%lld\n", lsum(9, 1LL, 2LL, 3LL, 4LL, 5LL, 6LL, 7LL, 8LL, 9000000000LL));
  say("%s=%d %.3f %c %lld|\n", "x", 42, 2.5, 'z', -5LL);
  return 0;
}`, 'varargs.c');
  });
  it('math library functions', () => {
    expectSameAsNative(String.raw`
#include <stdio.h>
#include <math.h>
int main(void) {
  double xs[] = {0.0, 0.5, 1.0, 2.0, 3.7, -1.5, 10.0, 100.25};
  for (int i = 0; i < 8; i++) {
    double x = xs[i];
    printf("%.6f %.6f %.6f %.6f %.6f %.6f %.6f\n", sqrt(fabs(x)), floor(x), ceil(x), round(x), trunc(x), fmod(x, 0.75), pow(x, 3.0));
    printf("%.9f %.9f %.9f %.9f %.9f\n", exp(x / 10), log(fabs(x) + 1), sin(x), cos(x), atan2(x, 2.0));
  }
  printf("%.1f %.1f %.1f %.1f\n", round(2.5), round(-2.5), rint(2.5), rint(3.5));
  printf("%d %d %d\n", isnan(NAN), isinf(-INFINITY), isfinite(1.0));
  float f = 2.0f;
  printf("%.7f %.7f\n", sqrtf(f), powf(f, 0.5f));
  return 0;
}`, 'math.c');
  });
});
