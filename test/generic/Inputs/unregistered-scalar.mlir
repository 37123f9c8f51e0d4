func.func @k(%i: i32) {
  "foo.effect"(%i) : (i32) -> ()
  return
}
