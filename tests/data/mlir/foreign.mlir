// Another toolchain's attribute and op: read with unregistered dialects allowed.
module @foreign attributes {acme.target = #acme.chip<"x1">} {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.add %arg0, %arg0 {acme.layout = #acme.layout<nhwc>} : tensor<4xf32>
    %1 = "acme.fused_gelu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
