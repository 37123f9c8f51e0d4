func.func @f(%a: i32) -> i32 {
  %0 = "foo.bar"(%a) {x = 1, b = true, name = "n"} : (i32) -> i32
  %1:2 = "foo.baz"(%0, %a) ({
  ^bb0(%b: i32):
    %c = arith.addi %b, %b : i32
    "foo.yield"(%c) : (i32) -> ()
  }, {
    "foo.yield"() : () -> ()
  }) : (i32, i32) -> (i32, f32)
  "foo.noop"() <{k = 2 : i64, s = "x"}> {unit} : () -> ()
  return %1#0 : i32
}
