/* A string builder (malloc/realloc-backed) and a tokenizer for a tiny C-like
   language: identifiers, numbers (decimal and hex), operators with maximal munch,
   string literals with escapes, and comments. Tokens are rebuilt into normalised
   text and counted by kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sb { char *p; size_t len, cap; };
static void sb_putc(struct sb *b, char c) {
  if (b->len + 2 > b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 16;
    char *np = realloc(b->p, nc);
    if (!np) exit(8);
    b->p = np; b->cap = nc;
  }
  b->p[b->len++] = c;
  b->p[b->len] = 0;
}
static void sb_puts(struct sb *b, const char *s, size_t n) { for (size_t i = 0; i < n; i++) sb_putc(b, s[i]); }

enum kind { T_IDENT, T_NUM, T_OP, T_STR, T_KEYWORD, T_BAD, NKINDS };
static const char *kind_name[NKINDS] = {"ident", "num", "op", "str", "keyword", "bad"};
static const char *keywords[] = {"int", "if", "else", "while", "return", 0};
static const char *ops3[] = {"<<=", ">>=", 0};
static const char *ops2[] = {"==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--", "+=", "-=", "->", 0};

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
/* memcmp is not in the runtime subset; compare n bytes by hand */
static int same(const char *a, const char *b, size_t n) { for (size_t i = 0; i < n; i++) if (a[i] != b[i]) return 0; return 1; }

int main(void) {
  const char *src =
    "int main() { /* block comment */ int x = 0x1F + 42; // line comment\n"
    "  if (x >= 10 && x != 0) x <<= 2; else x--;\n"
    "  char *s = \"tab\\there \\\"quoted\\\"\"; return x->y ? 1 : 0; @ }";
  struct sb out = {0, 0, 0};
  int counts[NKINDS] = {0};
  long numsum = 0;
  const char *p = src;
  while (*p) {
    if (*p == ' ' || *p == '\n' || *p == '\t') { p++; continue; }
    if (p[0] == '/' && p[1] == '*') { p += 2; while (*p && !(p[0] == '*' && p[1] == '/')) p++; if (*p) p += 2; continue; }
    if (p[0] == '/' && p[1] == '/') { while (*p && *p != '\n') p++; continue; }
    const char *start = p;
    enum kind k;
    if (is_alpha(*p)) {
      while (is_alpha(*p) || is_digit(*p)) p++;
      k = T_IDENT;
      for (int i = 0; keywords[i]; i++)
        if (strlen(keywords[i]) == (size_t)(p - start) && same(keywords[i], start, (size_t)(p - start))) k = T_KEYWORD;
    } else if (is_digit(*p)) {
      long v = 0;
      if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        p += 2;
        while (is_hex(*p)) { v = v * 16 + (is_digit(*p) ? *p - '0' : (*p | 32) - 'a' + 10); p++; }
      } else while (is_digit(*p)) v = v * 10 + (*p++ - '0');
      numsum += v;
      k = T_NUM;
    } else if (*p == '"') {
      p++;
      while (*p && *p != '"') { if (*p == '\\' && p[1]) p++; p++; }
      if (*p) p++;
      k = T_STR;
    } else {
      size_t n = 0;
      for (int i = 0; !n && ops3[i]; i++) if (strlen(p) >= 3 && same(p, ops3[i], 3)) n = 3;
      for (int i = 0; !n && ops2[i]; i++) if (p[1] && same(p, ops2[i], 2)) n = 2;
      if (!n) n = 1;
      k = (*p == '@' || *p == '$') ? T_BAD : T_OP;
      p += n;
    }
    counts[k]++;
    if (out.len) sb_putc(&out, ' ');
    sb_puts(&out, start, (size_t)(p - start));
  }
  printf("%s\n", out.p);
  for (int i = 0; i < NKINDS; i++) printf("%s=%d ", kind_name[i], counts[i]);
  printf("\nnumsum=%ld length=%d cap=%d\n", numsum, (int)out.len, (int)out.cap);
  int total = (int)out.len;
  free(out.p);
  return total % 256;
}
