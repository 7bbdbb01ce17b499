/*
 * sylib.h — the SysY 2022 runtime library interface (the contest's "sylib").
 *
 * SysY programs are C programs with this library pre-declared. To run a SysY
 * program natively as C (the reference oracle for test/sysy):
 *
 *   clang-19 -x c prog.sy -x none -include runtime/sylib.h runtime/sylib.c -o prog
 *
 * (`-include` makes the declarations and the starttime/stoptime macros visible
 * to the program; `-x none` makes clang treat sylib.c by its extension again.)
 *
 * To link IR produced by a SysY compiler (e.g. ssakit's .ll output):
 *
 *   clang-19 prog.ll runtime/sylib.c -o prog
 *
 * In IR, starttime()/stoptime() are calls of
 *   void _sysy_starttime(i32 line) / void _sysy_stoptime(i32 line)
 * with the source line of the call; the macros below do the same in C.
 */
#ifndef SYSY_SYLIB_H
#define SYSY_SYLIB_H

#include <stdarg.h>

/* Input: getint/getfloat skip white space; getch reads one byte (-1 at EOF). */
int getint(void);
int getch(void);
float getfloat(void);
/* Read a count n, then n elements into a[0..n-1]; return n. */
int getarray(int a[]);
int getfarray(float a[]);

/* Output: putint "%d", putch one byte, putfloat "%a" (hexadecimal float). */
void putint(int a);
void putch(int a);
void putfloat(float a);
/* Print "n:" then " a[i]" for each element, then a newline. */
void putarray(int n, int a[]);
void putfarray(int n, float a[]);
/* printf to stdout. */
void putf(char a[], ...);

/* Timing: the intervals between starttime() and stoptime() are summed and
 * reported on stderr when the program exits. */
void _sysy_starttime(int lineno);
void _sysy_stoptime(int lineno);
#define starttime() _sysy_starttime(__LINE__)
#define stoptime() _sysy_stoptime(__LINE__)

#endif
