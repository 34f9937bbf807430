"""A BERT-style transformer encoder (2 layers, sequence 128, hidden 256, 4 heads, FFN 1024, float32) as an ONNX model
written the way exporters write it: MatMul + Add projections, Reshape/Transpose into heads, scaled dot-product
attention with Softmax, LayerNormalization decomposed into ReduceMean/Sub/Pow/Sqrt/Div, GELU as x * 0.5 * (1 + Erf(x / sqrt 2)).
For nnrt's ONNX front end against ONNX Runtime on the same file. Writes OUTDIR/encoder.onnx and OUTDIR/encoder.f32.
Usage: /usr/bin/python3 bench/peer/encoder_pair.py OUTDIR"""
import sys
import numpy as np
from onnx_graph import const, encoder_layer, node, nodes, write_model, layer_norm as onnx_layer_norm

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
S, H, HEADS, FFN, LAYERS = 128, 256, 4, 1024, 2
rng = np.random.default_rng(7)


def layer_norm(x):
    return onnx_layer_norm(x, H, rng, 1e-12)


x = "x"
for _ in range(LAYERS):
    x = encoder_layer(x, rng, layer_norm, S, H, HEADS, FFN)
nodes[-1].output[0] = "y"
write_model(OUT, "encoder", [1, S, H], "y", [1, S, H], rng)
