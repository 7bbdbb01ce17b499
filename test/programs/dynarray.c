/* Growable arrays with malloc/calloc/realloc/free: a vector of ints doubling its
   capacity, a vector of strings, calloc zero-initialisation, shrinking realloc,
   realloc(NULL, n) acting as malloc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct vec { int *data; int len, cap; };

static void vec_push(struct vec *v, int x) {
  if (v->len == v->cap) {
    int nc = v->cap ? v->cap * 2 : 4;
    int *nd = realloc(v->data, (size_t)nc * sizeof *nd);
    if (!nd) exit(4);
    v->data = nd; v->cap = nc;
  }
  v->data[v->len++] = x;
}

static char *dup_str(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (!d) exit(4);
  memcpy(d, s, n);
  return d;
}

int main(void) {
  struct vec v = {NULL, 0, 0};
  int grows = 0, last_cap = 0;
  for (int i = 0; i < 1000; i++) {
    vec_push(&v, i * i % 1009);
    if (v.cap != last_cap) { grows++; last_cap = v.cap; }
  }
  long sum = 0;
  for (int i = 0; i < v.len; i++) sum += v.data[i];
  printf("len=%d cap=%d grows=%d sum=%ld\n", v.len, v.cap, grows, sum);
  int *shrunk = realloc(v.data, 10 * sizeof(int));
  if (!shrunk) return 4;
  v.data = shrunk;
  printf("after shrink: %d %d %d\n", v.data[0], v.data[5], v.data[9]);
  free(v.data);

  long *z = calloc(50, sizeof *z);
  if (!z) return 4;
  long zs = 0;
  for (int i = 0; i < 50; i++) zs += z[i];
  for (int i = 0; i < 50; i++) z[i] = (long)i * i;
  z = realloc(z, 100 * sizeof *z);
  if (!z) return 4;
  for (int i = 50; i < 100; i++) z[i] = -(long)i;
  long zt = 0;
  for (int i = 0; i < 100; i++) zt += z[i];
  printf("calloc sum=%ld after fill=%ld\n", zs, zt);
  free(z);

  char *r = realloc(NULL, 8);
  if (!r) return 4;
  memcpy(r, "abcdefg", 8);
  printf("realloc(NULL): %s\n", r);
  free(r);

  const char *words[] = {"one", "two", "three", "four", "five", "six", "seven"};
  char **list = NULL;
  int n = 0;
  for (int round = 0; round < 3; round++)
    for (int i = 0; i < 7; i++) {
      char **nl = realloc(list, (size_t)(n + 1) * sizeof *nl);
      if (!nl) return 4;
      list = nl;
      list[n++] = dup_str(words[(i * 3 + round) % 7]);
    }
  size_t total = 0;
  for (int i = 0; i < n; i++) total += strlen(list[i]);
  printf("strings=%d total chars=%d first=%s last=%s\n", n, (int)total, list[0], list[n - 1]);
  for (int i = 0; i < n; i++) free(list[i]);
  free(list);
  unsigned char *big = malloc(100000);
  if (!big) return 4;
  memset(big, 0xA5, 100000);
  unsigned acc = 0;
  for (int i = 0; i < 100000; i += 997) acc += big[i];
  printf("big acc=%u\n", acc);
  free(big);
  return (int)(total + grows);
}
