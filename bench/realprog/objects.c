/* Objects with methods: each toggle is allocated, carries its method pointers, is
   used through them and freed (the "object toggling" shape of benchmark collections). */
#include <stdio.h>
#include <stdlib.h>

typedef struct Toggle Toggle;
struct Toggle {
  int state;
  int (*value)(Toggle *);
  Toggle *(*activate)(Toggle *);
};

static int toggle_value(Toggle *t) { return t->state; }
static Toggle *toggle_activate(Toggle *t) {
  t->state = !t->state;
  return t;
}

static Toggle *new_toggle(int start) {
  Toggle *t = malloc(sizeof(Toggle));
  t->state = start;
  t->value = toggle_value;
  t->activate = toggle_activate;
  return t;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  int on = 0;
  Toggle *t = new_toggle(1);
  for (int i = 0; i < 5; i++) on += t->activate(t)->value(t);
  free(t);
  for (int i = 0; i < n; i++) {
    Toggle *u = new_toggle(1);
    on += u->value(u);
    free(u);
  }
  printf("%d\n", on);
  return 0;
}
