/* getchar-driven text processing over stdin (io_echo.in): counts lines, words and
   characters like wc, histogram of letters, and echoes the input with ROT13 applied.
   Handles EOF properly (getchar returns int). */
#include <stdio.h>

static int rot13(int c) {
  if (c >= 'a' && c <= 'z') return 'a' + (c - 'a' + 13) % 26;
  if (c >= 'A' && c <= 'Z') return 'A' + (c - 'A' + 13) % 26;
  return c;
}

int main(void) {
  int lines = 0, words = 0, chars = 0, in_word = 0;
  int hist[26] = {0};
  int longest = 0, cur = 0;
  int c;
  while ((c = getchar()) != EOF) {
    chars++;
    putchar(rot13(c));
    if (c == '\n') { lines++; if (cur > longest) longest = cur; cur = 0; }
    else cur++;
    if (c == ' ' || c == '\n' || c == '\t') in_word = 0;
    else if (!in_word) { in_word = 1; words++; }
    if (c >= 'a' && c <= 'z') hist[c - 'a']++;
    else if (c >= 'A' && c <= 'Z') hist[c - 'A']++;
  }
  printf("lines=%d words=%d chars=%d longest=%d\n", lines, words, chars, longest);
  int maxh = 1;
  for (int i = 0; i < 26; i++) if (hist[i] > maxh) maxh = hist[i];
  for (int i = 0; i < 26; i++) {
    if (!hist[i]) continue;
    printf("%c %3d ", 'a' + i, hist[i]);
    for (int k = 0; k < hist[i] * 30 / maxh; k++) putchar('#');
    putchar('\n');
  }
  printf("getchar at EOF again: %d\n", getchar());
  return words;
}
