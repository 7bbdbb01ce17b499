/* Benchmark: memory-heavy code — heap-allocated records, merge sort by key with a
   temporary buffer, linked list traversal, struct copies. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rec { int key; int id; double w; char tag[8]; };
struct node { struct rec r; struct node *next; };

static void msort(struct rec *a, struct rec *tmp, int n) {
  if (n < 2) return;
  int h = n / 2;
  msort(a, tmp, h);
  msort(a + h, tmp, n - h);
  int i = 0, j = h, k = 0;
  while (i < h && j < n) tmp[k++] = a[i].key <= a[j].key ? a[i++] : a[j++];
  while (i < h) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, sizeof(struct rec) * n);
}

int main(void) {
  int n = 60000;
  struct rec *a = malloc(sizeof *a * n), *tmp = malloc(sizeof *tmp * n);
  unsigned s = 7;
  for (int i = 0; i < n; i++) {
    s = s * 1664525u + 1013904223u;
    a[i].key = (int)(s >> 8) % 100000; a[i].id = i; a[i].w = i * 0.5;
    memcpy(a[i].tag, "record", 7);
  }
  msort(a, tmp, n);
  struct node *head = NULL;
  for (int i = 0; i < n; i++) { struct node *nd = malloc(sizeof *nd); nd->r = a[i]; nd->next = head; head = nd; }
  long long chk = 0;
  int pos = 0;
  for (struct node *p = head; p; p = p->next) chk += (long long)p->r.key * (pos++ % 7) + p->r.id;
  while (head) { struct node *nx = head->next; free(head); head = nx; }
  int sorted = 1;
  for (int i = 1; i < n; i++) if (a[i - 1].key > a[i].key) sorted = 0;
  printf("sorted=%d chk=%lld first=%d last=%d tag=%s\n", sorted, chk, a[0].key, a[n - 1].key, a[n / 2].tag);
  free(a); free(tmp);
  return 0;
}
