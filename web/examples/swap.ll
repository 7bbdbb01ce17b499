; The swap problem (Briggs et al. 1998): a and b exchange their values on every iteration.
; Out of SSA, the phis are a parallel copy a <- b, b <- a; copied in order, one value is lost.
; Try the pipeline out-of-ssa.
@fmt = private unnamed_addr constant [7 x i8] c"%d %d\0A\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
entry:
  br label %loop
loop:
  %a = phi i32 [ 1, %entry ], [ %b, %loop ]
  %b = phi i32 [ 2, %entry ], [ %a, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %a, i32 %b)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 4
  br i1 %c, label %loop, label %exit
exit:
  ret i32 0
}
