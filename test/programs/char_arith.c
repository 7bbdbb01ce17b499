/* char arithmetic: plain char is signed on x86-64, promotions to int, overflow-free
   wrap on conversion back to char, Caesar and Vigenere ciphers, digit/letter
   classification by ranges, and counting with unsigned char indices. */
#include <stdio.h>
#include <string.h>

static char shift_letter(char c, int k) {
  if (c >= 'a' && c <= 'z') return (char)('a' + ((c - 'a' + k) % 26 + 26) % 26);
  if (c >= 'A' && c <= 'Z') return (char)('A' + ((c - 'A' + k) % 26 + 26) % 26);
  return c;
}

static void vigenere(char *s, const char *key, int dir) {
  size_t kl = strlen(key), j = 0;
  for (; *s; s++) {
    if ((*s | 32) >= 'a' && (*s | 32) <= 'z') { *s = shift_letter(*s, dir * (key[j % kl] - 'a')); j++; }
  }
}

int main(void) {
  char c = 127;
  c = (char)(c + 1);
  printf("127+1 as char=%d\n", c);
  signed char sc = -128;
  unsigned char uc = (unsigned char)sc;
  printf("sc=%d uc=%u sc*2=%d (int promotion)\n", sc, uc, sc * 2);
  char hi = (char)0xE9;
  printf("0xE9 as char=%d as unsigned=%u\n", hi, (unsigned char)hi);
  char msg[] = "Attack at Dawn, 10 ships!";
  for (int k = -3; k <= 29; k += 16) {
    char tmp[sizeof msg];
    memcpy(tmp, msg, sizeof msg);
    for (char *p = tmp; *p; p++) *p = shift_letter(*p, k);
    printf("caesar %3d: %s\n", k, tmp);
  }
  char v[] = "The Vigenere cipher is polyalphabetic";
  vigenere(v, "lemon", 1);
  printf("vigenere: %s\n", v);
  vigenere(v, "lemon", -1);
  printf("decoded:  %s\n", v);
  int counts[256] = {0};
  const char *text = "Mississippi \xff\xfe bytes \x80";
  for (const char *p = text; *p; p++) counts[(unsigned char)*p]++;
  for (int i = 0; i < 256; i++) if (counts[i] > 1 || (i >= 128 && counts[i])) printf("byte %d x%d\n", i, counts[i]);
  int digits = 0, letters = 0, other = 0;
  for (const char *p = msg; *p; p++) {
    if (*p >= '0' && *p <= '9') digits++;
    else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) letters++;
    else other++;
  }
  printf("digits=%d letters=%d other=%d\n", digits, letters, other);
  char sum = 0;
  for (int i = 0; i < 300; i++) sum = (char)(sum + 7);
  printf("char accumulated=%d\n", sum);
  return letters * 3 + digits;
}
