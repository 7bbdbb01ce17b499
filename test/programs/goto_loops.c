/* goto-style control flow: loops built from labels, a goto-driven state machine
   tokenising a string, early exit from nested loops, and cleanup-on-error chains. */
#include <stdio.h>
#include <stdlib.h>

static int gcd_goto(int a, int b) {
top:
  if (b == 0) return a;
  { int t = a % b; a = b; b = t; }
  goto top;
}

static int count_tokens(const char *s, int *numbers, int *words) {
  int tokens = 0;
  *numbers = 0; *words = 0;
start:
  if (*s == 0) goto done;
  if (*s == ' ' || *s == ',') { s++; goto start; }
  tokens++;
  if (*s >= '0' && *s <= '9') goto number;
  goto word;
number:
  while (*s >= '0' && *s <= '9') s++;
  (*numbers)++;
  goto start;
word:
  while (*s && *s != ' ' && *s != ',') s++;
  (*words)++;
  goto start;
done:
  return tokens;
}

static int find_pair(const int *v, int n, int target, int *oi, int *oj) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (v[i] + v[j] == target) { *oi = i; *oj = j; goto found; }
  return 0;
found:
  return 1;
}

static int setup(int fail_at) {
  int rc = 0;
  char *a = NULL, *b = NULL, *c = NULL;
  a = malloc(16);
  if (!a || fail_at == 1) { rc = 1; goto out; }
  b = malloc(32);
  if (!b || fail_at == 2) { rc = 2; goto free_a; }
  c = malloc(64);
  if (!c || fail_at == 3) { rc = 3; goto free_b; }
  a[0] = 'x'; b[0] = 'y'; c[0] = 'z';
  rc = a[0] + b[0] + c[0];
  free(c);
free_b:
  free(b);
free_a:
  free(a);
out:
  if (fail_at == 3) free(c);
  return rc;
}

int main(void) {
  printf("gcd=%d %d %d\n", gcd_goto(1071, 462), gcd_goto(17, 5), gcd_goto(0, 9));
  int nums, words;
  int t = count_tokens("12 apples, 7 pears,and 100 plums 3", &nums, &words);
  printf("tokens=%d numbers=%d words=%d\n", t, nums, words);
  int v[] = {8, 3, 11, 7, 2, 15, 6};
  int i = -1, j = -1;
  for (int target = 9; target <= 30; target += 7) {
    if (find_pair(v, 7, target, &i, &j)) printf("target %d: v[%d]+v[%d]\n", target, i, j);
    else printf("target %d: none\n", target);
  }
  for (int f = 0; f <= 3; f++) printf("setup(%d)=%d\n", f, setup(f));
  int k = 0, sum = 0;
loop:
  sum += k * k;
  if (++k < 10) goto loop;
  printf("sum of squares=%d\n", sum);
  return sum % 100 + t;
}
