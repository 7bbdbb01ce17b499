/* Open-addressing hash table with 64-bit multiplicative (Fibonacci) hashing:
   h = (key * 11400714819323198485) >> (64 - bits), relying on wrapping uint64_t
   multiplication. Linear probing, tombstones for deletion, growth by rehashing. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>

#define EMPTY 0
#define USED 1
#define DEAD 2

struct slot { uint64_t key; int64_t val; uint8_t state; };
struct table { struct slot *s; unsigned bits; size_t count, dead; };

static size_t hash(uint64_t k, unsigned bits) { return (size_t)((k * 11400714819323198485ull) >> (64 - bits)); }

static void init(struct table *t, unsigned bits) {
  t->bits = bits; t->count = t->dead = 0;
  t->s = calloc((size_t)1 << bits, sizeof *t->s);
  if (!t->s) exit(7);
}

static void put(struct table *t, uint64_t k, int64_t v);

static void grow(struct table *t) {
  struct slot *old = t->s;
  size_t n = (size_t)1 << t->bits;
  init(t, t->bits + 1);
  for (size_t i = 0; i < n; i++) if (old[i].state == USED) put(t, old[i].key, old[i].val);
  free(old);
}

static void put(struct table *t, uint64_t k, int64_t v) {
  if ((t->count + t->dead + 1) * 4 > ((size_t)3 << t->bits)) grow(t);
  size_t mask = ((size_t)1 << t->bits) - 1, i = hash(k, t->bits), tomb = (size_t)-1;
  while (t->s[i].state != EMPTY) {
    if (t->s[i].state == USED && t->s[i].key == k) { t->s[i].val = v; return; }
    if (t->s[i].state == DEAD && tomb == (size_t)-1) tomb = i;
    i = (i + 1) & mask;
  }
  if (tomb != (size_t)-1) { i = tomb; t->dead--; }
  t->s[i].key = k; t->s[i].val = v; t->s[i].state = USED; t->count++;
}

static struct slot *find(struct table *t, uint64_t k) {
  size_t mask = ((size_t)1 << t->bits) - 1, i = hash(k, t->bits);
  while (t->s[i].state != EMPTY) {
    if (t->s[i].state == USED && t->s[i].key == k) return &t->s[i];
    i = (i + 1) & mask;
  }
  return NULL;
}

static int erase(struct table *t, uint64_t k) {
  struct slot *s = find(t, k);
  if (!s) return 0;
  s->state = DEAD; t->count--; t->dead++;
  return 1;
}

int main(void) {
  struct table t;
  init(&t, 3);
  uint64_t x = 88172645463325252ull;
  uint64_t keys[2000];
  for (int i = 0; i < 2000; i++) {
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    keys[i] = x % 5000;
    struct slot *s = find(&t, keys[i]);
    put(&t, keys[i], s ? s->val + 1 : 1);
  }
  printf("distinct=%d bits=%u\n", (int)t.count, t.bits);
  int64_t total = 0;
  for (int i = 0; i < 2000; i++) total += find(&t, keys[i])->val;
  printf("sum of counts over inserts=%lld\n", (long long)total);
  int erased = 0;
  for (uint64_t k = 0; k < 5000; k += 2) erased += erase(&t, k);
  printf("erased=%d remaining=%d\n", erased, (int)t.count);
  int present = 0;
  for (uint64_t k = 0; k < 5000; k++) present += find(&t, k) != NULL;
  for (uint64_t k = 100000; k < 100500; k++) put(&t, k * 2654435761ull, (int64_t)k);
  uint64_t chk = 0;
  size_t cap = (size_t)1 << t.bits;
  for (size_t i = 0; i < cap; i++) if (t.s[i].state == USED) chk += t.s[i].key * 31 + (uint64_t)t.s[i].val;
  printf("present=%d count=%d bits=%u chk=%llu\n", present, (int)t.count, t.bits, (unsigned long long)chk);
  printf("hash(1,10)=%d hash(2^63,16)=%d\n", (int)hash(1, 10), (int)hash(1ull << 63, 16));
  free(t.s);
  return (int)(chk % 256);
}
