/* Dense switches (jump-table shaped): a day-of-week table, fallthrough that
   accumulates, Duff's device copying, a default in the middle, nested switches. */
#include <stdio.h>

static const char *day(int d) {
  switch (d) {
  case 0: return "sun";
  case 1: return "mon";
  case 2: return "tue";
  case 3: return "wed";
  case 4: return "thu";
  case 5: return "fri";
  case 6: return "sat";
  default: return "???";
  }
}

static int fall(int n) {
  int acc = 0;
  switch (n) {
  case 7: acc += 7; /* fallthrough */
  case 6: acc += 6; /* fallthrough */
  case 5: acc += 5; break;
  case 4: acc += 4; /* fallthrough */
  default: acc += 100; /* fallthrough */
  case 3: acc += 3; /* fallthrough */
  case 2: acc += 2; break;
  case 1: acc = -1;
  }
  return acc;
}

static void duff_copy(short *to, const short *from, int count) {
  int n = (count + 7) / 8;
  if (count <= 0) return;
  switch (count % 8) {
  case 0: do { *to++ = *from++;
  /* fallthrough */ case 7: *to++ = *from++;
  /* fallthrough */ case 6: *to++ = *from++;
  /* fallthrough */ case 5: *to++ = *from++;
  /* fallthrough */ case 4: *to++ = *from++;
  /* fallthrough */ case 3: *to++ = *from++;
  /* fallthrough */ case 2: *to++ = *from++;
  /* fallthrough */ case 1: *to++ = *from++;
          } while (--n > 0);
  }
}

static int classify(char c, int mode) {
  switch (mode) {
  case 0:
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u': return 1;
    default: return 0;
    }
  case 1:
    switch (c) { case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9': return 2; }
    return -2;
  default:
    return c & 7;
  }
}

int main(void) {
  for (int d = -1; d < 9; d++) printf("%s ", day(d));
  printf("\n");
  int total = 0;
  for (int n = -2; n < 10; n++) { int f = fall(n); printf("fall(%d)=%d\n", n, f); total += f; }
  short src[37], dst[37];
  for (int i = 0; i < 37; i++) { src[i] = (short)(i * i - 100); dst[i] = 0; }
  for (int len = 0; len <= 37; len += 5) {
    duff_copy(dst, src, len);
    int s = 0;
    for (int i = 0; i < 37; i++) s += dst[i];
    printf("duff %d -> %d\n", len, s);
  }
  const char *text = "switch 2024 statements";
  int score = 0;
  for (int m = 0; m < 3; m++)
    for (const char *p = text; *p; p++) score += classify(*p, m);
  printf("score=%d total=%d\n", score, total);
  return (total + score) & 0xff;
}
