/* A binary min-heap priority queue of (priority, id) pairs on a heap-allocated
   array that grows with realloc; used for event simulation, a k-way merge of sorted
   runs, and heap-ordered extraction with stable ties. */
#include <stdio.h>
#include <stdlib.h>

struct item { long prio; int id; };
struct pq { struct item *a; int n, cap; };

static int less(struct item x, struct item y) { return x.prio < y.prio || (x.prio == y.prio && x.id < y.id); }

static void pq_push(struct pq *q, long prio, int id) {
  if (q->n == q->cap) {
    q->cap = q->cap ? q->cap * 2 : 2;
    struct item *na = realloc(q->a, (size_t)q->cap * sizeof *na);
    if (!na) exit(9);
    q->a = na;
  }
  int i = q->n++;
  q->a[i].prio = prio; q->a[i].id = id;
  while (i > 0 && less(q->a[i], q->a[(i - 1) / 2])) {
    struct item t = q->a[i]; q->a[i] = q->a[(i - 1) / 2]; q->a[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
}

static struct item pq_pop(struct pq *q) {
  struct item top = q->a[0];
  q->a[0] = q->a[--q->n];
  int i = 0;
  for (;;) {
    int l = 2 * i + 1, r = l + 1, m = i;
    if (l < q->n && less(q->a[l], q->a[m])) m = l;
    if (r < q->n && less(q->a[r], q->a[m])) m = r;
    if (m == i) break;
    struct item t = q->a[i]; q->a[i] = q->a[m]; q->a[m] = t;
    i = m;
  }
  return top;
}

int main(void) {
  struct pq q = {NULL, 0, 0};
  /* event simulation: each event reschedules itself a few times */
  for (int i = 0; i < 5; i++) pq_push(&q, i * 3, i);
  int processed = 0;
  long last = -1;
  int ordered = 1;
  while (q.n && processed < 60) {
    struct item e = pq_pop(&q);
    if (e.prio < last) ordered = 0;
    last = e.prio;
    processed++;
    if (processed <= 12) printf("t=%ld event %d\n", e.prio, e.id);
    if (e.id < 40) pq_push(&q, e.prio + 7 + e.id % 5, e.id + 5);
  }
  printf("processed=%d ordered=%d left=%d\n", processed, ordered, q.n);
  while (q.n) pq_pop(&q);
  /* k-way merge of 4 sorted runs */
  int runs[4][6] = {{1, 4, 9, 16, 25, 36}, {2, 3, 5, 7, 11, 13}, {0, 10, 20, 30, 40, 50}, {6, 6, 6, 8, 8, 100}};
  int pos[4] = {0};
  for (int r = 0; r < 4; r++) pq_push(&q, runs[r][0], r);
  long checksum = 0;
  int k = 0;
  printf("merged:");
  while (q.n) {
    struct item it = pq_pop(&q);
    printf(" %ld", it.prio);
    checksum = checksum * 7 + it.prio;
    k++;
    if (++pos[it.id] < 6) pq_push(&q, runs[it.id][pos[it.id]], it.id);
  }
  printf("\nmerged %d items checksum=%ld cap=%d\n", k, checksum, q.cap);
  free(q.a);
  return (int)(checksum % 256);
}
