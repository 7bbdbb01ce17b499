/* Function pointers: dispatch tables, callbacks, a generic insertion sort taking a
   comparator, function pointers stored in structs and returned from functions. */
#include <stdio.h>

typedef int (*binop)(int, int);
typedef int (*cmp_fn)(const void *, const void *);

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static int maxi(int a, int b) { return a > b ? a : b; }

static const binop ops[] = {add, sub, mul, maxi};
static const char opname[] = "+-*M";

static int fold(binop f, const int *v, int n, int init) {
  for (int i = 0; i < n; i++) init = f(init, v[i]);
  return init;
}

static void isort(void *base, int n, int size, cmp_fn cmp) {
  char *b = base;
  char tmp[32];
  for (int i = 1; i < n; i++) {
    for (int k = 0; k < size; k++) tmp[k] = b[i * size + k];
    int j = i - 1;
    while (j >= 0 && cmp(b + j * size, tmp) > 0) {
      for (int k = 0; k < size; k++) b[(j + 1) * size + k] = b[j * size + k];
      j--;
    }
    for (int k = 0; k < size; k++) b[(j + 1) * size + k] = tmp[k];
  }
}

static int cmp_int_asc(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int cmp_int_desc(const void *a, const void *b) { return cmp_int_asc(b, a); }

struct item { char name[8]; int weight; };
static int cmp_item(const void *a, const void *b) {
  const struct item *x = a, *y = b;
  if (x->weight != y->weight) return x->weight - y->weight;
  int i = 0;
  while (x->name[i] && x->name[i] == y->name[i]) i++;
  return (unsigned char)x->name[i] - (unsigned char)y->name[i];
}

struct machine { const char *label; binop step; int state; };

static binop pick(int code) { return ops[code & 3]; }

int main(void) {
  int v[] = {3, 9, -4, 7, 1, 8, -2, 5};
  for (int k = 0; k < 4; k++) printf("fold %c = %d\n", opname[k], fold(ops[k], v, 8, k == 2 ? 1 : 0));
  isort(v, 8, sizeof(int), cmp_int_asc);
  for (int i = 0; i < 8; i++) printf("%d ", v[i]);
  printf("\n");
  isort(v, 8, sizeof(int), cmp_int_desc);
  for (int i = 0; i < 8; i++) printf("%d ", v[i]);
  printf("\n");
  struct item items[] = {{"pear", 3}, {"apple", 3}, {"fig", 1}, {"kiwi", 2}, {"banana", 1}};
  isort(items, 5, sizeof(struct item), cmp_item);
  for (int i = 0; i < 5; i++) printf("%s:%d ", items[i].name, items[i].weight);
  printf("\n");
  struct machine ms[3] = {{"adder", add, 0}, {"mul", mul, 1}, {"max", maxi, -100}};
  for (int r = 1; r <= 6; r++)
    for (int i = 0; i < 3; i++) ms[i].state = ms[i].step(ms[i].state, r);
  for (int i = 0; i < 3; i++) printf("%s -> %d\n", ms[i].label, ms[i].state);
  int acc = 0;
  for (int i = 0; i < 20; i++) acc = pick(i)(acc, i) % 1000;
  printf("acc=%d same fn=%d\n", acc, pick(5) == sub);
  return acc & 0xff;
}
