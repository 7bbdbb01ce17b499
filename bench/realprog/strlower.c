/* String lower-casing in place over a text buffer, repeated, with a checksum of the
   result. */
#include <stdio.h>
#include <string.h>

static void to_lower(char *s) {
  for (; *s; s++)
    if (*s >= 'A' && *s <= 'Z') *s += 32;
}

int main(void) {
  char buf[128];
  unsigned h = 0;
  for (int it = 0; it < 20000; it++) {
    strcpy(buf, "The Quick Brown Fox Jumps Over The Lazy DOG");
    buf[it % 40] = 'A' + it % 26;
    to_lower(buf);
    for (int i = 0; buf[i]; i++) h = h * 33 + (unsigned char)buf[i];
  }
  printf("%u\n", h);
  return 0;
}
