/* A tokenizer state machine whose current state is a label address held in a variable
 * (`void *state = &&in_word; ... goto *state;`): counts words, numbers and lines of a
 * fixed text, the way hand-written lexers use computed goto. */
#include <stdio.h>

static const char text[] =
  "the quick brown fox 12 jumps\nover 3 lazy dogs 4567\n\n  trailing  words 89x 0\n";

static void scan(const char *s, int *words, int *numbers, int *lines, long *numsum) {
  void *state = &&start;
  void *after_char;
  long cur = 0;
  int c;
  *words = *numbers = *lines = 0;
  *numsum = 0;
next:
  c = (unsigned char)*s++;
  goto *state;
start:
  if (c == 0) goto done;
  if (c == '\n') { (*lines)++; goto next; }
  if (c >= '0' && c <= '9') { cur = c - '0'; state = &&in_number; goto next; }
  if (c == ' ') goto next;
  state = &&in_word;
  goto next;
in_word:
  after_char = &&start;
  if (c == ' ' || c == '\n' || c == 0) { (*words)++; state = after_char; goto *state; }
  goto next;
in_number:
  if (c >= '0' && c <= '9') { cur = cur * 10 + (c - '0'); goto next; }
  if (c == ' ' || c == '\n' || c == 0) { (*numbers)++; *numsum += cur; state = &&start; goto *state; }
  state = &&in_word; /* "89x" is a word */
  goto *state;
done:
  return;
}

int main(void) {
  int w, n, l;
  long sum;
  scan(text, &w, &n, &l, &sum);
  printf("words %d numbers %d lines %d sum %ld\n", w, n, l, sum);
  int total = 0;
  for (int i = 0; i < 300; i++) { scan(text + (i % 7), &w, &n, &l, &sum); total += w * 3 + n + l; }
  printf("total %d\n", total);
  return w + n;
}
