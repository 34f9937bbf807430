"""An Inception-v3-shaped network, shortened (float32, 224x224, random He-scaled weights, batch norm folded): the stem,
two mixed blocks of four branches (1x1; 1x1 then 5x5; 1x1 then two 3x3; a 3x3 AveragePool counting its padding then
1x1) concatenated over channels, a max pool, a block with 1x7 and 7x1 convolutions, global average pool and a Gemm.
For nnrt's ONNX front end against ONNX Runtime on the same file; none of the kernels were tuned on it. Writes
OUTDIR/inception.onnx and OUTDIR/inception.f32 (the NCHW input). Usage: /usr/bin/python3 bench/peer/inception_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(13)


def conv(x, cin, cout, kh, kw, stride=1):
    return node("Relu", [convolution(x, cin, cout, (kh, kw), rng, stride)])


def block(x, c):
    a = conv(x, c, 64, 1, 1)
    b = conv(conv(x, c, 48, 1, 1), 48, 64, 5, 5)
    d = conv(conv(conv(x, c, 64, 1, 1), 64, 96, 3, 3), 96, 96, 3, 3)
    p = conv(node("AveragePool", [x], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1], count_include_pad=1), c, 64, 1, 1)
    return node("Concat", [a, b, d, p], axis=1), 288


def block7(x, c):
    a = conv(x, c, 192, 1, 1)
    b = conv(conv(conv(x, c, 128, 1, 1), 128, 128, 1, 7), 128, 192, 7, 1)
    p = conv(node("AveragePool", [x], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1], count_include_pad=1), c, 192, 1, 1)
    return node("Concat", [a, b, p], axis=1), 576


x = conv(conv("x", 3, 32, 3, 3, 2), 32, 64, 3, 3)
x = node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2])
x = conv(x, 64, 192, 3, 3)
x = node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2])
x, c = block(x, 192)
x, c = block(x, c)
x = node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2])
x, c = block7(x, c)
flat = node("Flatten", [node("GlobalAveragePool", [x])])
w = const((rng.standard_normal((1000, c)) / np.sqrt(c)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [flat, w, b], ["logits"], transB=1))
write_model(OUT, "inception", [1, 3, 224, 224], "logits", [1, 1000], rng)
