"""ResNet-50 v1.5 (float32, 224x224, batch norm folded into the convolutions' biases, random He-scaled weights) as an
ONNX model, for nnrt's ONNX front end against ONNX Runtime on the same file: the model most benchmarks quote. The 7x7
stem and max pool, then 3, 4, 6 and 3 bottleneck blocks (1x1 reduction, 3x3 carrying the stage's stride, 1x1
expansion; a projected shortcut in each stage's first block, Add + Relu), global average pool and a Gemm classifier.
None of the kernels were tuned on it. Writes OUTDIR/resnet50.onnx and OUTDIR/resnet50.f32 (the NCHW input).
Usage: /usr/bin/python3 bench/peer/resnet50_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(50)


def conv(x, cin, cout, k, stride=1, relu=True):
    y = convolution(x, cin, cout, k, rng, stride)
    return node("Relu", [y]) if relu else y


x = node("MaxPool", [conv("x", 3, 64, 7, 2)], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
c = 64
for width, blocks, stride in [(64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)]:
    for i in range(blocks):
        s = stride if i == 0 else 1
        y = conv(x, c, width, 1)
        y = conv(y, width, width, 3, s)
        y = conv(y, width, 4 * width, 1, relu=False)
        shortcut = conv(x, c, 4 * width, 1, s, relu=False) if i == 0 else x
        x = node("Relu", [node("Add", [y, shortcut])])
        c = 4 * width
flat = node("Flatten", [node("GlobalAveragePool", [x])])
w = const((rng.standard_normal((1000, c)) / np.sqrt(c)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [flat, w, b], ["logits"], transB=1))
write_model(OUT, "resnet50", [1, 3, 224, 224], "logits", [1, 1000], rng)
