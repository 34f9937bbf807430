"""ResNeXt-50 (32x4d) shaped network, shortened to one bottleneck block per stage (float32, 224x224, batch norm folded
into the convolutions' biases, random He-scaled weights) as an ONNX model, for nnrt's ONNX front end against ONNX
Runtime on the same file: the 7x7 stem and max pool, then per stage a 1x1 reduction, a 3x3 grouped convolution of 32
groups (4 to 32 channels per group), a 1x1 expansion and the projected residual Add + Relu; global average pool and a
Gemm classifier. None of the kernels were tuned on it. Writes OUTDIR/resnext.onnx and OUTDIR/resnext.f32 (the NCHW
input). Usage: /usr/bin/python3 bench/peer/resnext_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(11)


def conv(x, cin, cout, k, stride=1, group=1, relu=True):
    y = convolution(x, cin, cout, k, rng, stride, group)
    return node("Relu", [y]) if relu else y


x = node("MaxPool", [conv("x", 3, 64, 7, 2)], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
c = 64
for width, cout, stride in [(128, 256, 1), (256, 512, 2), (512, 1024, 2), (1024, 2048, 2)]:
    y = conv(x, c, width, 1)
    y = conv(y, width, width, 3, stride, group=32)
    y = conv(y, width, cout, 1, relu=False)
    shortcut = conv(x, c, cout, 1, stride, relu=False)
    x = node("Relu", [node("Add", [y, shortcut])])
    c = cout
flat = node("Flatten", [node("GlobalAveragePool", [x])])
w = const((rng.standard_normal((1000, c)) / np.sqrt(c)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [flat, w, b], ["logits"], transB=1))
write_model(OUT, "resnext", [1, 3, 224, 224], "logits", [1, 1000], rng)
