"""MobileNetV3-Large (float32, 224x224, batch norm folded into the convolutions' biases, random He-scaled weights) as
an ONNX model, for nnrt's ONNX front end (`nnrt run mobilenetv3.onnx`) against ONNX Runtime on the same file:
inverted residual blocks (1x1 expansion, depthwise 3x3 or 5x5, squeeze-and-excitation with ReLU and HardSigmoid,
linear 1x1 projection, residual Add), hard swish written as x * HardSigmoid(x), as exporters write it for opset 13.
None of the kernels were tuned on it. Writes OUTDIR/mobilenetv3.onnx and OUTDIR/mobilenetv3.f32 (the NCHW input).
Usage: /usr/bin/python3 bench/peer/mobilenetv3_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(7)


def hard_sigmoid(x):
    return node("HardSigmoid", [x], alpha=1.0 / 6.0, beta=0.5)


def activation(x, kind):
    if kind == "RE":
        return node("Relu", [x])
    if kind == "HS":
        return node("Mul", [x, hard_sigmoid(x)])
    return x


def conv(x, cin, cout, k, stride=1, group=1, act="RE"):
    return activation(convolution(x, cin, cout, k, rng, stride, group), act)


def divisible(v, d=8):
    return max(d, int(v + d / 2) // d * d)


def squeeze_excite(x, c):
    squeezed = divisible(c // 4)
    s = node("GlobalAveragePool", [x])
    s = conv(s, c, squeezed, 1, act="RE")
    s = hard_sigmoid(conv(s, squeezed, c, 1, act=None))
    return node("Mul", [x, s])


def block(x, cin, k, hidden, cout, se, act, stride):
    y = conv(x, cin, hidden, 1, act=act) if hidden != cin else x
    y = conv(y, hidden, hidden, k, stride, group=hidden, act=act)
    if se:
        y = squeeze_excite(y, hidden)
    y = conv(y, hidden, cout, 1, act=None)
    return node("Add", [y, x]) if stride == 1 and cin == cout else y


x = conv("x", 3, 16, 3, 2, act="HS")
c = 16
for k, hidden, cout, se, act, stride in [(3, 16, 16, False, "RE", 1), (3, 64, 24, False, "RE", 2),
                                         (3, 72, 24, False, "RE", 1), (5, 72, 40, True, "RE", 2),
                                         (5, 120, 40, True, "RE", 1), (5, 120, 40, True, "RE", 1),
                                         (3, 240, 80, False, "HS", 2), (3, 200, 80, False, "HS", 1),
                                         (3, 184, 80, False, "HS", 1), (3, 184, 80, False, "HS", 1),
                                         (3, 480, 112, True, "HS", 1), (3, 672, 112, True, "HS", 1),
                                         (5, 672, 160, True, "HS", 2), (5, 960, 160, True, "HS", 1),
                                         (5, 960, 160, True, "HS", 1)]:
    x = block(x, c, k, hidden, cout, se, act, stride)
    c = cout
x = conv(x, c, 960, 1, act="HS")
flat = node("Flatten", [node("GlobalAveragePool", [x])])
w1 = const((rng.standard_normal((1280, 960)) * np.sqrt(2.0 / 960)).astype(np.float32), "fc_w")
b1 = const((rng.standard_normal(1280) * 0.1).astype(np.float32), "fc_b")
h = activation(node("Gemm", [flat, w1, b1], transB=1), "HS")
w2 = const((rng.standard_normal((1000, 1280)) * np.sqrt(1.0 / 1280)).astype(np.float32), "fc_w")
b2 = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [h, w2, b2], ["logits"], transB=1))
write_model(OUT, "mobilenetv3", [1, 3, 224, 224], "logits", [1, 1000], rng)
