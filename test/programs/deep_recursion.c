/* DEEP RECURSION: depth_sum recurses 100000 levels deep with a small frame, and
   walk_list recurses once per node of a 100000-node list. An interpreter or code
   generator must not use a host-stack frame that is much larger than the native one.
   The recursion is not a tail call (work happens after the call returns). */
#include <stdio.h>
#include <stdlib.h>

#define DEPTH 100000

static long long depth_sum(int n) {
  if (n == 0) return 0;
  long long below = depth_sum(n - 1);
  return below + (n % 7) * (long long)n;
}

struct node { struct node *next; int v; };

static int walk_list(const struct node *p, int depth) {
  if (!p) return depth;
  int d = walk_list(p->next, depth + 1);
  return d ^ (p->v & 1);
}

static unsigned max_depth_seen;
static unsigned count_down(unsigned n, unsigned depth) {
  if (depth > max_depth_seen) max_depth_seen = depth;
  if (n <= 1) return 1;
  unsigned r = count_down(n - 1, depth + 1);
  return r + (n & 3);
}

int main(void) {
  long long s = depth_sum(DEPTH);
  printf("depth_sum(%d) = %lld\n", DEPTH, s);
  struct node *head = NULL;
  for (int i = 0; i < DEPTH; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 99;
    n->v = i * 3;
    n->next = head;
    head = n;
  }
  printf("walk_list = %d\n", walk_list(head, 0));
  while (head) { struct node *n = head->next; free(head); head = n; }
  printf("count_down = %u max depth = %u\n", count_down(DEPTH, 1), max_depth_seen);
  return (int)(s % 97);
}
