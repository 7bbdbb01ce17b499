/* String handling with the allowed libc: strlen, strcmp, memcpy, memmove, memset,
   char arrays, manual strcat/strchr/strstr, reversal, palindromes, word counts. */
#include <stdio.h>
#include <string.h>

static char *my_strcat(char *dst, const char *src) { memcpy(dst + strlen(dst), src, strlen(src) + 1); return dst; }
static const char *my_strchr(const char *s, int c) { for (; *s; s++) if (*s == (char)c) return s; return c ? 0 : s; }
static const char *my_strstr(const char *h, const char *n) {
  size_t ln = strlen(n);
  for (; *h; h++) {
    size_t i = 0;
    while (i < ln && h[i] == n[i]) i++;
    if (i == ln) return h;
  }
  return ln ? 0 : h;
}
static void reverse(char *s) { size_t n = strlen(s); for (size_t i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; } }
static int is_pal(const char *s) {
  size_t i = 0, j = strlen(s);
  while (i + 1 < j) {
    if (s[i] == ' ') { i++; continue; }
    if (s[j - 1] == ' ') { j--; continue; }
    if (s[i] != s[j - 1]) return 0;
    i++; j--;
  }
  return 1;
}
static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
  char buf[128];
  memset(buf, 0, sizeof buf);
  memcpy(buf, "Hello", 6);
  my_strcat(buf, ", ");
  my_strcat(buf, "world");
  printf("%s len=%d\n", buf, (int)strlen(buf));
  const char *w[] = {"apple", "apricot", "app", "banana", "", "Apple", "apple"};
  for (int i = 0; i < 6; i++) printf("cmp(%s,%s)=%d\n", w[i], w[i + 1], sign(strcmp(w[i], w[i + 1])));
  const char *p = my_strchr(buf, 'o');
  printf("first o at %ld, last char via strchr(0): %d\n", (long)(p - buf), *my_strchr(buf, 0));
  const char *q = my_strstr("the quick brown fox jumps", "own");
  printf("strstr -> %s\n", q ? q : "(null)");
  printf("strstr miss -> %d\n", my_strstr("abc", "abd") == 0);
  char r[] = "stressed";
  reverse(r);
  printf("reversed: %s\n", r);
  const char *pals[] = {"never odd or even", "racecar", "palindrome", "a", "step on no pets"};
  int npal = 0;
  for (int i = 0; i < 5; i++) { int v = is_pal(pals[i]); npal += v; printf("%s: %d\n", pals[i], v); }
  char mv[] = "0123456789";
  memmove(mv + 2, mv, 5);
  printf("memmove overlap right: %s\n", mv);
  memmove(mv, mv + 3, 6);
  printf("memmove overlap left: %s\n", mv);
  memset(mv + 4, '*', 3);
  printf("memset: %s\n", mv);
  char words[] = "  count   the words in   this line ";
  int count = 0, in = 0;
  for (char *c = words; *c; c++) {
    if (*c == ' ') in = 0;
    else if (!in) { in = 1; count++; }
  }
  printf("words=%d\n", count);
  char up[32];
  size_t k = 0;
  for (const char *s = "MiXeD cAsE 123"; *s; s++) up[k++] = (*s >= 'a' && *s <= 'z') ? (char)(*s - 32) : *s;
  up[k] = 0;
  printf("%s\n", up);
  return (int)strlen(buf) * 10 + npal;
}
