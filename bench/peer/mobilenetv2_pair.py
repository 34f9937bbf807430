"""MobileNet v2 1.0 (float32, 224x224, batch norm folded into the convolutions' biases, random He-scaled weights) as
an ONNX model, for nnrt's ONNX front end (`nnrt run mobilenetv2.onnx`) against ONNX Runtime on the same file: inverted
residual blocks (1x1 expansion + ReLU6, 3x3 depthwise + ReLU6, linear 1x1 projection, Add of the block input where
the shapes allow), none of which the kernels were tuned on. Writes OUTDIR/mobilenetv2.onnx and OUTDIR/mobilenetv2.f32
(the NCHW input). Usage: /usr/bin/python3 bench/peer/mobilenetv2_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(2)
six, zero = const(np.float32(6.0), "six"), const(np.float32(0.0), "zero")


def conv(x, cin, cout, k, stride, relu6, group=1):
    y = convolution(x, cin, cout, k, rng, stride, group)
    return node("Clip", [y, zero, six]) if relu6 else y


def inverted_residual(x, cin, cout, stride, expand):
    hidden = cin * expand
    y = conv(x, cin, hidden, 1, 1, True) if expand != 1 else x
    y = conv(y, hidden, hidden, 3, stride, True, group=hidden)
    y = conv(y, hidden, cout, 1, 1, False)
    return node("Add", [y, x]) if stride == 1 and cin == cout else y


x = conv("x", 3, 32, 3, 2, True)
c = 32
for expand, cout, repeats, stride in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                                      (6, 160, 3, 2), (6, 320, 1, 1)]:
    for i in range(repeats):
        x = inverted_residual(x, c, cout, stride if i == 0 else 1, expand)
        c = cout
x = conv(x, c, 1280, 1, 1, True)
flat = node("Flatten", [node("GlobalAveragePool", [x])])
w = const((rng.standard_normal((1000, 1280)) * np.sqrt(1.0 / 1280)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [flat, w, b], ["logits"], transB=1))
write_model(OUT, "mobilenetv2", [1, 3, 224, 224], "logits", [1, 1000], rng)
