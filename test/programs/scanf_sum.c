/* scanf with %d %lld %c %s over scanf_sum.in: a header, a list of records
   "name qty price_cents flag", a trailing big-number section, and EOF handling
   through scanf's return value. */
#include <stdio.h>
#include <string.h>

struct rec { char name[16]; int qty; long long cents; char flag; };

int main(void) {
  int n;
  if (scanf("%d", &n) != 1 || n < 0 || n > 20) { printf("bad header\n"); return 1; }
  struct rec recs[20];
  long long total = 0;
  int flagged = 0;
  for (int i = 0; i < n; i++) {
    struct rec *r = &recs[i];
    int got = scanf("%s %d %lld %c", r->name, &r->qty, &r->cents, &r->flag);
    if (got != 4) { printf("record %d: only %d fields\n", i, got); return 2; }
    total += r->qty * r->cents;
    if (r->flag == 'y') flagged++;
    printf("%-10s qty=%3d price=%lld.%02lld flag=%c\n", r->name, r->qty, r->cents / 100, r->cents % 100, r->flag);
  }
  printf("total=%lld.%02lld flagged=%d\n", total / 100, total % 100, flagged);
  int longest = 0;
  for (int i = 1; i < n; i++) if (strlen(recs[i].name) > strlen(recs[longest].name)) longest = i;
  printf("longest name: %s\n", recs[longest].name);
  long long big, sum = 0;
  int count = 0;
  while (scanf("%lld", &big) == 1) { sum += big; count++; }
  printf("read %d big numbers, sum=%lld\n", count, sum);
  char c = '?';
  int more = scanf(" %c", &c);
  printf("after numbers: scanf returned %d, c=%c\n", more, c);
  char word[32];
  int w = 0;
  while (scanf("%s", word) == 1) { w++; printf("word %d: %s (%d)\n", w, word, (int)strlen(word)); }
  printf("final scanf=%d\n", scanf("%d", &n));
  return (int)(total % 200) + w;
}
