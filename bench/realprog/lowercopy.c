/* A helper lower-cases a string into a freshly allocated buffer; the caller drops the
   result (the "unused result" shape of string-handling micro-benchmarks). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *lower_copy(const char *s, int len) {
  char *r = malloc(len + 1);
  for (int i = 0; i < len; i++) {
    char c = s[i];
    r[i] = (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
  }
  r[len] = 0;
  return r;
}

int main(void) {
  const char *text = "Hello World, Mixed CASE";
  int len = (int)strlen(text);
  int calls = 0;
  for (int i = 0; i < 100000; i++) {
    lower_copy(text, len);
    calls++;
  }
  printf("calls=%d len=%d\n", calls, len);
  return 0;
}
