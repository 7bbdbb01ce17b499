/* A small bytecode virtual machine: a switch-dispatched interpreter loop with an
   operand stack, conditional jumps, calls/returns with a frame stack. Runs programs
   computing factorials, a Fibonacci loop and a GCD, with step limits. */
#include <stdio.h>

enum op { PUSH, POP, DUP, SWAP, OVER, ADD, SUB, MUL, DIV, MOD, LT, EQ, JMP, JZ, CALL, RET, PRINT, HALT, LOAD, STORE };

struct vm { long stack[64]; int sp; int frames[16]; int fp; long mem[8]; long steps; };

static int run(struct vm *m, const int *code, int pc, long max_steps) {
  m->sp = 0; m->fp = 0; m->steps = 0;
  for (;;) {
    if (++m->steps > max_steps) return -1;
    if (m->sp > 60) return -2;                     /* room for any push */
    int op = code[pc++];
    static const unsigned char need[] = {0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 1, 0, 0, 1, 0, 0, 1};
    if (op < 0 || op > STORE) return -6;
    if (m->sp < need[op]) return -7;               /* stack underflow */
    switch (op) {
    case PUSH: m->stack[m->sp++] = code[pc++]; break;
    case POP: m->sp--; break;
    case DUP: m->stack[m->sp] = m->stack[m->sp - 1]; m->sp++; break;
    case SWAP: { long t = m->stack[m->sp - 1]; m->stack[m->sp - 1] = m->stack[m->sp - 2]; m->stack[m->sp - 2] = t; break; }
    case OVER: m->stack[m->sp] = m->stack[m->sp - 2]; m->sp++; break;
    case ADD: m->sp--; m->stack[m->sp - 1] += m->stack[m->sp]; break;
    case SUB: m->sp--; m->stack[m->sp - 1] -= m->stack[m->sp]; break;
    case MUL: m->sp--; m->stack[m->sp - 1] *= m->stack[m->sp]; break;
    case DIV: m->sp--; if (!m->stack[m->sp]) return -3; m->stack[m->sp - 1] /= m->stack[m->sp]; break;
    case MOD: m->sp--; if (!m->stack[m->sp]) return -3; m->stack[m->sp - 1] %= m->stack[m->sp]; break;
    case LT: m->sp--; m->stack[m->sp - 1] = m->stack[m->sp - 1] < m->stack[m->sp]; break;
    case EQ: m->sp--; m->stack[m->sp - 1] = m->stack[m->sp - 1] == m->stack[m->sp]; break;
    case JMP: pc = code[pc]; break;
    case JZ: { int target = code[pc++]; if (!m->stack[--m->sp]) pc = target; break; }
    case CALL: if (m->fp >= 16) return -4; m->frames[m->fp++] = pc + 1; pc = code[pc]; break;
    case RET: if (m->fp == 0) return -5; pc = m->frames[--m->fp]; break;
    case PRINT: printf("vm: %ld\n", m->stack[--m->sp]); break;
    case LOAD: m->stack[m->sp++] = m->mem[code[pc++] & 7]; break;
    case STORE: m->mem[code[pc++] & 7] = m->stack[--m->sp]; break;
    case HALT: return (int)(m->sp ? m->stack[m->sp - 1] & 0xff : 0);
    default: return -6;
    }
  }
}

/* factorial(n) iteratively: mem0 = n, mem1 = acc */
static const int fact_prog[] = {
  /* 0 */ PUSH, 15, STORE, 0, PUSH, 1, STORE, 1,
  /* 8 */ LOAD, 0, PUSH, 1, LT, JZ, 18,
  /* 15 */ LOAD, 1, HALT,
  /* 18 */ LOAD, 1, LOAD, 0, MUL, STORE, 1, LOAD, 0, PUSH, 1, SUB, STORE, 0, JMP, 8,
};
/* fib loop printing the first 12 numbers via a subroutine at 34 */
static const int fib_prog[] = {
  /* 0 */ PUSH, 0, STORE, 0, PUSH, 1, STORE, 1, PUSH, 12, STORE, 2,
  /* 12 */ LOAD, 2, JZ, 31, CALL, 34, LOAD, 2, PUSH, 1, SUB, STORE, 2, JMP, 12,
  /* 27 */ HALT, HALT, HALT, HALT,
  /* 31 */ LOAD, 1, HALT,
  /* 34 */ LOAD, 0, PRINT, LOAD, 0, LOAD, 1, ADD, LOAD, 1, STORE, 0, STORE, 1, RET,
};
static const int gcd_prog[] = {
  PUSH, 1071, PUSH, 462,
  /* 4 */ DUP, JZ, 14, SWAP, OVER, MOD, JMP, 4, 0, 0,
  /* 14 */ POP, DUP, PRINT, HALT,
};
static const int bad_prog[] = {PUSH, 1, PUSH, 0, DIV, HALT};
static const int loop_prog[] = {JMP, 0};
static const int under_prog[] = {PUSH, 5, ADD, HALT};

int main(void) {
  struct vm m;
  int r1 = run(&m, fact_prog, 0, 10000);
  printf("fact: result=%d mem1=%ld steps=%ld\n", r1, m.mem[1], m.steps);
  int r2 = run(&m, fib_prog, 0, 10000);
  printf("fib: result=%d steps=%ld\n", r2, m.steps);
  int r3 = run(&m, gcd_prog, 0, 10000);
  printf("gcd: result=%d steps=%ld\n", r3, m.steps);
  int r4 = run(&m, bad_prog, 0, 100);
  int r5 = run(&m, loop_prog, 0, 5000);
  int r6 = run(&m, under_prog, 0, 100);
  printf("errors: %d %d %d\n", r4, r5, r6);
  return (r1 + r2 + r3 + r4 + r5 + r6) & 0xff;
}
