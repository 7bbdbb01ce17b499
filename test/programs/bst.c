/* Binary search tree on the heap: insert, search, delete (all three cases), in-order
   traversal with an explicit stack, height, and freeing with a post-order walk. */
#include <stdio.h>
#include <stdlib.h>

struct tree { int key; int count; struct tree *l, *r; };

static struct tree *insert(struct tree *t, int k) {
  struct tree **pp = &t;
  while (*pp) {
    if (k == (*pp)->key) { (*pp)->count++; return t; }
    pp = k < (*pp)->key ? &(*pp)->l : &(*pp)->r;
  }
  struct tree *n = malloc(sizeof *n);
  if (!n) exit(5);
  n->key = k; n->count = 1; n->l = n->r = NULL;
  *pp = n;
  return t;
}

static struct tree *delete(struct tree *t, int k) {
  if (!t) return NULL;
  if (k < t->key) { t->l = delete(t->l, k); return t; }
  if (k > t->key) { t->r = delete(t->r, k); return t; }
  if (!t->l || !t->r) { struct tree *c = t->l ? t->l : t->r; free(t); return c; }
  struct tree *m = t->r;
  while (m->l) m = m->l;
  t->key = m->key; t->count = m->count;
  m->count = 1;
  t->r = delete(t->r, m->key);
  return t;
}

static int height(const struct tree *t) {
  if (!t) return 0;
  int a = height(t->l), b = height(t->r);
  return 1 + (a > b ? a : b);
}

static int contains(const struct tree *t, int k) {
  while (t && t->key != k) t = k < t->key ? t->l : t->r;
  return t != NULL;
}

static unsigned inorder_hash(struct tree *t, int *n, int print) {
  struct tree *stack[64];
  int sp = 0;
  unsigned h = 0;
  while (t || sp) {
    while (t) { stack[sp++] = t; t = t->l; }
    t = stack[--sp];
    h = h * 31 + (unsigned)t->key * (unsigned)t->count;
    if (print) printf("%d%s ", t->key, t->count > 1 ? "+" : "");
    (*n)++;
    t = t->r;
  }
  if (print) printf("\n");
  return h;
}

static void destroy(struct tree *t) {
  if (!t) return;
  destroy(t->l);
  destroy(t->r);
  free(t);
}

int main(void) {
  struct tree *t = NULL;
  unsigned s = 99;
  for (int i = 0; i < 300; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; t = insert(t, (int)(s % 500)); }
  int n = 0;
  unsigned h = inorder_hash(t, &n, 0);
  printf("nodes=%d height=%d hash=%u\n", n, height(t), h);
  int found = 0;
  for (int k = 0; k < 500; k++) found += contains(t, k);
  printf("found=%d\n", found);
  for (int k = 0; k < 500; k += 3) t = delete(t, k);
  n = 0;
  h = inorder_hash(t, &n, 0);
  printf("after delete: nodes=%d height=%d hash=%u\n", n, height(t), h);
  struct tree *small = NULL;
  int keys[] = {50, 30, 70, 20, 40, 60, 80, 35, 45, 65};
  for (int i = 0; i < 10; i++) small = insert(small, keys[i]);
  small = delete(small, 30);
  small = delete(small, 50);
  small = delete(small, 20);
  int m = 0;
  inorder_hash(small, &m, 1);
  printf("small root=%d\n", small->key);
  destroy(small);
  destroy(t);
  return n;
}
