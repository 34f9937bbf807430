"""ShuffleNet v2 1.0x (float32, 224x224, batch norm folded into the convolutions' biases, random He-scaled weights) as
an ONNX model, for nnrt's ONNX front end against ONNX Runtime on the same file: units that Split the channels in two,
run one half through 1x1, depthwise 3x3 and 1x1 convolutions, Concat the halves and shuffle the channels as PyTorch
exports it (Reshape to [N, 2, C/2, H, W], Transpose, Reshape back); stride-2 units run both branches. None of the kernels
were tuned on it. Writes OUTDIR/shufflenet.onnx and OUTDIR/shufflenet.f32 (the NCHW input). Usage:
/usr/bin/python3 bench/peer/shufflenet_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(12)


def conv(x, cin, cout, k, stride=1, group=1, relu=True):
    y = convolution(x, cin, cout, k, rng, stride, group)
    return node("Relu", [y]) if relu else y


def branch(x, cin, c, stride):
    y = conv(x, cin, c, 1)
    y = conv(y, c, c, 3, stride, group=c, relu=False)
    return conv(y, c, c, 1)


def shuffle(x, c, h):
    y = node("Reshape", [x, const(np.array([1, 2, c // 2, h, h], np.int64), "shape")])
    y = node("Transpose", [y], perm=[0, 2, 1, 3, 4])
    return node("Reshape", [y, const(np.array([1, c, h, h], np.int64), "shape")])


def unit(x, cin, cout, stride, h):
    c = cout // 2
    if stride == 1:
        a, b = node("Split", [x, const(np.array([c, c], np.int64), "split")], n_out=2, axis=1)
        y = node("Concat", [a, branch(b, c, c, 1)], axis=1)
    else:
        left = conv(conv(x, cin, cin, 3, 2, group=cin, relu=False), cin, c, 1)
        y = node("Concat", [left, branch(x, cin, c, 2)], axis=1)
    return shuffle(y, cout, h)


x = node("MaxPool", [conv("x", 3, 24, 3, 2)], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
c, h = 24, 56
for cout, repeats in [(116, 4), (232, 8), (464, 4)]:
    h //= 2
    for i in range(repeats):
        x = unit(x, c, cout, 2 if i == 0 else 1, h)
        c = cout
x = conv(x, c, 1024, 1)
flat = node("Flatten", [node("GlobalAveragePool", [x])])
w = const((rng.standard_normal((1000, 1024)) / np.sqrt(1024)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [flat, w, b], ["logits"], transB=1))
write_model(OUT, "shufflenet", [1, 3, 224, 224], "logits", [1, 1000], rng)
