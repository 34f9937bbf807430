"""SqueezeNet 1.1 (float32, 224x224, random He-scaled weights) as an ONNX model, for nnrt's ONNX front end
(`nnrt run squeezenet.onnx`) against ONNX Runtime on the same file: fire modules (1x1 squeeze + ReLU, then 1x1 and
3x3 expansions + ReLU concatenated over channels), max pools, a 1x1 classifier convolution and a global average
pool. None of the kernels were tuned on it. Writes OUTDIR/squeezenet.onnx and OUTDIR/squeezenet.f32 (the NCHW
input). Usage: /usr/bin/python3 bench/peer/squeezenet_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(4)


def conv(x, cin, cout, k, stride=1, pad=None):
    return node("Relu", [convolution(x, cin, cout, k, rng, stride, pads=None if pad is None else [pad] * 4)])


def fire(x, cin, squeeze, expand):
    s = conv(x, cin, squeeze, 1)
    return node("Concat", [conv(s, squeeze, expand, 1), conv(s, squeeze, expand, 3)], axis=1)


def pool(x):
    return node("MaxPool", [x], kernel_shape=[3, 3], strides=[2, 2])


x = pool(conv("x", 3, 64, 3, 2, 0))
x = fire(fire(x, 64, 16, 64), 128, 16, 64)
x = fire(fire(pool(x), 128, 32, 128), 256, 32, 128)
x = fire(fire(fire(fire(pool(x), 256, 48, 192), 384, 48, 192), 384, 64, 256), 512, 64, 256)
x = node("GlobalAveragePool", [conv(x, 512, 1000, 1)])
nodes.append(helper.make_node("Flatten", [x], ["logits"]))
write_model(OUT, "squeezenet", [1, 3, 224, 224], "logits", [1, 1000], rng)
