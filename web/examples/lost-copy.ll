; The lost-copy problem (Briggs et al. 1998): the back edges L1->H and L2->H are critical;
; copies placed at the end of L1 also run when L1 goes on to L2. out-of-ssa splits the edges.
; Try the pipeline out-of-ssa.
@fmt = private unnamed_addr constant [7 x i8] c"%d %d\0A\00"
declare i32 @printf(ptr, ...)
define i32 @main() {
entry:
  br label %H
H:
  %i = phi i32 [ 0, %entry ], [ %i1, %L1 ], [ %i1, %L2 ]
  %a = phi i32 [ 1, %entry ], [ %n, %L1 ], [ %n2, %L2 ]
  %b = phi i32 [ 2, %entry ], [ %a, %L1 ], [ %a, %L2 ]
  %r = call i32 (ptr, ...) @printf(ptr @fmt, i32 %a, i32 %b)
  %i1 = add i32 %i, 1
  %n = add i32 %a, 10
  br label %L1
L1:
  %odd = and i32 %i1, 1
  %even = icmp eq i32 %odd, 0
  br i1 %even, label %H, label %L2
L2:
  %n2 = add i32 %n, 100
  %more = icmp slt i32 %i1, 6
  br i1 %more, label %H, label %exit
exit:
  ret i32 0
}
