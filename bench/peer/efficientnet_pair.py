"""EfficientNet-B0 (float32, 224x224, batch norm folded into the convolutions' biases, random He-scaled weights) as
an ONNX model, for nnrt's ONNX front end (`nnrt run efficientnet.onnx`) against ONNX Runtime on the same file:
MBConv blocks (1x1 expansion, depthwise 3x3 or 5x5, squeeze-and-excitation, linear 1x1 projection, residual Add) with
SiLU written as x * Sigmoid(x), as exporters write it. None of the kernels were tuned on it. Writes
OUTDIR/efficientnet.onnx and OUTDIR/efficientnet.f32 (the NCHW input). Usage:
/usr/bin/python3 bench/peer/efficientnet_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(5)


def silu(x):
    return node("Mul", [x, node("Sigmoid", [x])])


def conv(x, cin, cout, k, stride=1, group=1, act=True):
    y = convolution(x, cin, cout, k, rng, stride, group)
    return silu(y) if act else y


def squeeze_excite(x, c, squeezed):
    s = node("GlobalAveragePool", [x])
    s = conv(s, c, squeezed, 1)
    s = node("Sigmoid", [conv(s, squeezed, c, 1, act=False)])
    return node("Mul", [x, s])


def mbconv(x, cin, cout, k, stride, expand):
    hidden = cin * expand
    y = conv(x, cin, hidden, 1) if expand != 1 else x
    y = conv(y, hidden, hidden, k, stride, group=hidden)
    y = squeeze_excite(y, hidden, max(1, cin // 4))
    y = conv(y, hidden, cout, 1, act=False)
    return node("Add", [y, x]) if stride == 1 and cin == cout else y


x = conv("x", 3, 32, 3, 2)
c = 32
for expand, cout, repeats, stride, k in [(1, 16, 1, 1, 3), (6, 24, 2, 2, 3), (6, 40, 2, 2, 5), (6, 80, 3, 2, 3),
                                         (6, 112, 3, 1, 5), (6, 192, 4, 2, 5), (6, 320, 1, 1, 3)]:
    for i in range(repeats):
        x = mbconv(x, c, cout, k, stride if i == 0 else 1, expand)
        c = cout
x = conv(x, c, 1280, 1)
flat = node("Flatten", [node("GlobalAveragePool", [x])])
w = const((rng.standard_normal((1000, 1280)) * np.sqrt(1.0 / 1280)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [flat, w, b], ["logits"], transB=1))
write_model(OUT, "efficientnet", [1, 3, 224, 224], "logits", [1, 1000], rng)
