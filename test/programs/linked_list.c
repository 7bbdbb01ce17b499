/* Singly linked lists on the heap: push/append, reverse in place, merge sort,
   remove by predicate, split, and freeing every node (ASan checks for leaks off,
   but use-after-free and double free are detected). */
#include <stdio.h>
#include <stdlib.h>

struct node { int val; struct node *next; };

static struct node *push(struct node *head, int v) {
  struct node *n = malloc(sizeof *n);
  if (!n) exit(3);
  n->val = v; n->next = head;
  return n;
}

static struct node *reverse(struct node *h) {
  struct node *prev = NULL;
  while (h) { struct node *nx = h->next; h->next = prev; prev = h; h = nx; }
  return prev;
}

static struct node *merge(struct node *a, struct node *b) {
  struct node dummy = {0, NULL}, *t = &dummy;
  while (a && b) {
    if (a->val <= b->val) { t->next = a; a = a->next; } else { t->next = b; b = b->next; }
    t = t->next;
  }
  t->next = a ? a : b;
  return dummy.next;
}

static struct node *msort(struct node *h) {
  if (!h || !h->next) return h;
  struct node *slow = h, *fast = h->next;
  while (fast && fast->next) { slow = slow->next; fast = fast->next->next; }
  struct node *second = slow->next;
  slow->next = NULL;
  return merge(msort(h), msort(second));
}

static struct node *remove_if_div(struct node *h, int d, int *removed) {
  struct node **pp = &h;
  while (*pp) {
    if ((*pp)->val % d == 0) { struct node *dead = *pp; *pp = dead->next; free(dead); (*removed)++; }
    else pp = &(*pp)->next;
  }
  return h;
}

static void print(const char *label, const struct node *h) {
  printf("%s:", label);
  int k = 0;
  for (; h && k < 15; h = h->next, k++) printf(" %d", h->val);
  if (h) printf(" ...");
  printf("\n");
}

static int length(const struct node *h) { int n = 0; while (h) { n++; h = h->next; } return n; }

static void free_list(struct node *h) { while (h) { struct node *n = h->next; free(h); h = n; } }

int main(void) {
  struct node *h = NULL;
  unsigned s = 2024;
  for (int i = 0; i < 200; i++) { s = s * 1103515245u + 12345u; h = push(h, (int)((s >> 16) % 1000)); }
  print("initial", h);
  h = reverse(h);
  print("reversed", h);
  h = msort(h);
  print("sorted", h);
  int sorted_ok = 1;
  for (struct node *p = h; p && p->next; p = p->next) if (p->val > p->next->val) sorted_ok = 0;
  int removed = 0;
  h = remove_if_div(h, 3, &removed);
  printf("sorted_ok=%d removed=%d length=%d\n", sorted_ok, removed, length(h));
  print("no multiples of 3", h);
  long sum = 0;
  for (struct node *p = h; p; p = p->next) sum += p->val;
  printf("sum=%ld\n", sum);
  free_list(h);
  return (int)(sum % 251);
}
