/* A tiny C implementation of the SysY runtime, to run generated SysY programs as C
   (see SYSY_C_PRELUDE in src/fuzz/sysy-gen.ts). Output formats follow the contest's
   sylib: putint "%d", putch one byte, putfloat "%a", putarray/putfarray "n:" then
   " %d" / " %a" per element and a newline. Timing functions do nothing. */
#include <stdio.h>

int getint(void) { int x = 0; if (scanf("%d", &x) != 1) return 0; return x; }
int getch(void) { return getchar(); }
float getfloat(void) { float x = 0; if (scanf("%a", &x) != 1) return 0; return x; }
int getarray(int a[]) { int n = getint(); for (int i = 0; i < n; i++) a[i] = getint(); return n; }
int getfarray(float a[]) { int n = getint(); for (int i = 0; i < n; i++) a[i] = getfloat(); return n; }
void putint(int a) { printf("%d", a); }
void putch(int a) { putchar(a); }
void putfloat(float a) { printf("%a", a); }
void putarray(int n, int a[]) { printf("%d:", n); for (int i = 0; i < n; i++) printf(" %d", a[i]); printf("\n"); }
void putfarray(int n, float a[]) { printf("%d:", n); for (int i = 0; i < n; i++) printf(" %a", a[i]); printf("\n"); }
void starttime(void) {}
void stoptime(void) {}
