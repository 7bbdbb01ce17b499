/*
 * sylib.c — the SysY 2022 runtime library, written for ssakit after the
 * contest's documented behaviour:
 *
 * - getint: scanf("%d"); getch: one byte as a signed char, -1 at end of input; getfloat: scanf("%a"), which
 *   accepts decimal as well as hexadecimal floating input.
 * - getarray/getfarray: read n, then n elements; return n.
 * - putint: "%d"; putch: one byte; putfloat: "%a".
 * - putarray/putfarray: "n:" then " %d" / " %a" per element, then "\n".
 * - putf: printf-like, to stdout.
 * - _sysy_starttime(line)/_sysy_stoptime(line): each pair records a timer
 *   "Timer@START-STOP"; at exit every timer and the total are written to
 *   stderr as "Timer@0012-0034: 0H-0M-1S-234567us" and "TOTAL: 0H-0M-1S-234567us".
 *
 * See sylib.h for the build commands.
 */
#include "sylib.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

int getint(void) {
  int x = 0;
  if (scanf("%d", &x) != 1) return 0;
  return x;
}

int getch(void) {
  /* the contest's runtime reads a `char` with scanf("%c"): bytes above 127 come back
     negative (char is signed on x86); at end of input we return -1 */
  int c = getchar();
  return c == EOF ? -1 : (int)(signed char)c;
}

float getfloat(void) {
  float x = 0;
  if (scanf("%a", &x) != 1) return 0;
  return x;
}

int getarray(int a[]) {
  int n = getint();
  for (int i = 0; i < n; i++) a[i] = getint();
  return n;
}

int getfarray(float a[]) {
  int n = getint();
  for (int i = 0; i < n; i++) a[i] = getfloat();
  return n;
}

void putint(int a) {
  printf("%d", a);
}

void putch(int a) {
  putchar(a);
}

void putfloat(float a) {
  printf("%a", a);
}

void putarray(int n, int a[]) {
  printf("%d:", n);
  for (int i = 0; i < n; i++) printf(" %d", a[i]);
  printf("\n");
}

void putfarray(int n, float a[]) {
  printf("%d:", n);
  for (int i = 0; i < n; i++) printf(" %a", a[i]);
  printf("\n");
}

void putf(char a[], ...) {
  va_list args;
  va_start(args, a);
  vfprintf(stdout, a, args);
  va_end(args);
}

/* ---- timing ---- */

#define SYSY_MAX_TIMERS 1024

static struct timeval sysy_start_tv;
static int sysy_timer_count = 0;
static int sysy_start_line[SYSY_MAX_TIMERS];
static int sysy_stop_line[SYSY_MAX_TIMERS];
static long long sysy_elapsed_us[SYSY_MAX_TIMERS];
static long long sysy_total_us = 0;

void _sysy_starttime(int lineno) {
  if (sysy_timer_count < SYSY_MAX_TIMERS) sysy_start_line[sysy_timer_count] = lineno;
  gettimeofday(&sysy_start_tv, NULL);
}

void _sysy_stoptime(int lineno) {
  struct timeval now;
  gettimeofday(&now, NULL);
  long long us = (long long)(now.tv_sec - sysy_start_tv.tv_sec) * 1000000LL + (now.tv_usec - sysy_start_tv.tv_usec);
  if (sysy_timer_count < SYSY_MAX_TIMERS) {
    sysy_stop_line[sysy_timer_count] = lineno;
    sysy_elapsed_us[sysy_timer_count] = us;
    sysy_timer_count++;
  }
  sysy_total_us += us;
}

static void sysy_print_duration(long long us) {
  long long s = us / 1000000LL;
  fprintf(stderr, "%lldH-%lldM-%lldS-%lldus\n", s / 3600, (s / 60) % 60, s % 60, us % 1000000LL);
}

__attribute__((destructor)) static void sysy_report_timers(void) {
  if (sysy_timer_count == 0) return;
  for (int i = 0; i < sysy_timer_count; i++) {
    fprintf(stderr, "Timer@%04d-%04d: ", sysy_start_line[i], sysy_stop_line[i]);
    sysy_print_duration(sysy_elapsed_us[i]);
  }
  fprintf(stderr, "TOTAL: ");
  sysy_print_duration(sysy_total_us);
}
