/* Globals with initializers: scalars, strings, string arrays, nested aggregates,
   structs with arrays, arrays of structs, partially initialised arrays (rest zero),
   designated initializers, pointers to globals inside global initializers. */
#include <stdio.h>
#include <string.h>

struct point { int x, y; };
struct shape { const char *name; int n; struct point pts[4]; unsigned char color[3]; };

int counter = 42;
long long big = -1234567890123LL;
double ratio = 0.625;
float ff = -2.5f;
char greeting[] = "hello, globals";
const char *names[] = {"alpha", "beta", "gamma", "delta", 0};
int table[3][4] = {{1, 2, 3, 4}, {5, 6}, {[3] = 9}};
unsigned short shorts[8] = {1, 1, 2, 3, 5, 8};
struct point origin = {0, 0};
struct point *porigin = &origin;
int *pcounter = &counter;
const char *tail = greeting + 7;
struct shape shapes[] = {
  {"triangle", 3, {{0, 0}, {4, 0}, {0, 3}}, {255, 0, 0}},
  {"square", 4, {{0, 0}, {2, 0}, {2, 2}, {0, 2}}, {0, 255, 0}},
  {.name = "segment", .n = 2, .pts = {{-1, -1}, {5, 7}}, .color = {1, 2, 3}},
};
struct { int a; struct { char c; short s[2]; } inner; } nested = {7, {'z', {-3, 300}}};
static int zeroes[100];
static const signed char deltas[] = {-1, 0, 1, -128, 127};

static int twice_area(const struct shape *s) {
  int a = 0;
  for (int i = 0; i < s->n; i++) {
    const struct point *p = &s->pts[i], *q = &s->pts[(i + 1) % s->n];
    a += p->x * q->y - q->x * p->y;
  }
  return a < 0 ? -a : a;
}

int main(void) {
  printf("%d %lld %.3f %.2f\n", counter, big, ratio, ff);
  printf("%s (%d chars) tail=%s\n", greeting, (int)strlen(greeting), tail);
  for (int i = 0; names[i]; i++) printf("name[%d]=%s\n", i, names[i]);
  for (int i = 0; i < 3; i++) { for (int j = 0; j < 4; j++) printf("%d ", table[i][j]); printf("\n"); }
  for (int i = 0; i < 8; i++) printf("%u ", shorts[i]);
  printf("\n");
  *pcounter += 8;
  porigin->x = 3;
  printf("counter=%d origin=(%d,%d)\n", counter, origin.x, origin.y);
  int total = 0;
  for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    struct shape *s = &shapes[i];
    printf("%-8s n=%d area2=%d color=%u,%u,%u\n", s->name, s->n, twice_area(s), s->color[0], s->color[1], s->color[2]);
    total += twice_area(s);
  }
  printf("nested: %d %c %d %d\n", nested.a, nested.inner.c, nested.inner.s[0], nested.inner.s[1]);
  int z = 0;
  for (int i = 0; i < 100; i++) z |= zeroes[i];
  printf("zeroes or=%d deltas:", z);
  for (int i = 0; i < 5; i++) printf(" %d", deltas[i]);
  printf("\n");
  greeting[0] = 'H';
  printf("%s\n", greeting);
  return total + counter;
}
