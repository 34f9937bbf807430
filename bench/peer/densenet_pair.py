"""A DenseNet-121-shaped network, shortened (float32, 224x224, random weights): the 7x7 stride-2 stem and max pool,
then dense blocks of 6, 12 and 8 layers (growth 32; each layer BatchNormalization + Relu + 1x1 Conv to 128,
BatchNormalization + Relu + 3x3 Conv to 32, its output concatenated to the block's features over channels) joined by
transition layers (BatchNormalization + Relu + 1x1 Conv halving the channels + 2x2 average pool), then
BatchNormalization + Relu, global average pool and a Gemm classifier. BatchNormalization precedes its Relu and
Conv (pre-activation), so an exporter cannot fold it into a convolution. None of the kernels were tuned on it.
Writes OUTDIR/densenet.onnx and OUTDIR/densenet.f32. Usage: /usr/bin/python3 bench/peer/densenet_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(10)


def conv(x, cin, cout, k, stride=1):
    return convolution(x, cin, cout, k, rng, stride, bias=False)


def bn_relu(x, c):
    scale = const((1 + 0.1 * rng.standard_normal(c)).astype(np.float32), "s")
    bias = const((0.1 * rng.standard_normal(c)).astype(np.float32), "b")
    mean = const((0.1 * rng.standard_normal(c)).astype(np.float32), "m")
    var = const((1 + 0.1 * rng.random(c)).astype(np.float32), "v")
    return node("Relu", [node("BatchNormalization", [x, scale, bias, mean, var], epsilon=1e-5)])


x = node("MaxPool", [node("Relu", [conv("x", 3, 64, 7, 2)])], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1])
c = 64
for i, layers in enumerate([6, 12, 8]):
    for _ in range(layers):
        y = conv(bn_relu(conv(bn_relu(x, c), c, 128, 1), 128), 128, 32, 3)
        x = node("Concat", [x, y], axis=1)
        c += 32
    if i < 2:
        x = node("AveragePool", [conv(bn_relu(x, c), c, c // 2, 1)], kernel_shape=[2, 2], strides=[2, 2])
        c //= 2
x = node("Flatten", [node("GlobalAveragePool", [bn_relu(x, c)])])
w = const((rng.standard_normal((1000, c)) / np.sqrt(c)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [x, w, b], ["logits"], transB=1))
write_model(OUT, "densenet", [1, 3, 224, 224], "logits", [1, 1000], rng)
