"""A BERT-style transformer encoder (2 layers, sequence 128, hidden 256, 4 heads, FFN 1024, float32) as an ONNX model
written the way exporters write it: MatMul + Add projections, Reshape/Transpose into heads, scaled dot-product
attention with Softmax, LayerNormalization decomposed into ReduceMean/Sub/Pow/Sqrt/Div, GELU as x * 0.5 * (1 + Erf(x / sqrt 2)).
For nnrt's ONNX front end against ONNX Runtime on the same file. Writes OUTDIR/encoder.onnx and OUTDIR/encoder.f32.
Usage: /usr/bin/python3 bench/peer/encoder_pair.py OUTDIR"""
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto
from onnx_graph import const, encoder_layer, inits, node, nodes

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
S, H, HEADS, FFN, LAYERS = 128, 256, 4, 1024, 2
rng = np.random.default_rng(7)


def layer_norm(x):
    mean = node("ReduceMean", [x], axes=[-1])
    d = node("Sub", [x, mean])
    var = node("ReduceMean", [node("Pow", [d, const(np.float32(2.0))])], axes=[-1])
    std = node("Sqrt", [node("Add", [var, const(np.float32(1e-12))])])
    g = const((1 + 0.1 * rng.standard_normal(H)).astype(np.float32), "gamma")
    beta = const((0.1 * rng.standard_normal(H)).astype(np.float32), "beta")
    return node("Add", [node("Mul", [node("Div", [d, std]), g]), beta])


x = "x"
for _ in range(LAYERS):
    x = encoder_layer(x, rng, layer_norm, S, H, HEADS, FFN)
nodes[-1].output[0] = "y"
graph = helper.make_graph(nodes, "encoder", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, S, H])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, S, H])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
onnx.checker.check_model(model)
onnx.save(model, f"{OUT}/encoder.onnx")
rng.standard_normal((1, S, H)).astype(np.float32).tofile(f"{OUT}/encoder.f32")
