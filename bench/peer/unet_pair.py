"""A small U-Net (float32, 1x3x256x256, 4 levels of two 3x3 Conv + Relu, 2x2 max pools down, 2x2 stride-2 ConvTranspose
up, skip connections concatenated over channels, a 1x1 Conv to 2 classes and a Sigmoid) as an ONNX model, for nnrt's ONNX
front end against ONNX Runtime on the same file. None of the kernels were tuned on it. Writes OUTDIR/unet.onnx and
OUTDIR/unet.f32 (the NCHW input). Usage: /usr/bin/python3 bench/peer/unet_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(9)


def conv(x, cin, cout, k=3, relu=True):
    y = convolution(x, cin, cout, k, rng)
    return node("Relu", [y]) if relu else y


def up(x, cin, cout):
    w = const((rng.standard_normal((cin, cout, 2, 2)) * np.sqrt(1.0 / cin)).astype(np.float32), "wt")
    b = const((rng.standard_normal(cout) * 0.1).astype(np.float32), "bt")
    return node("ConvTranspose", [x, w, b], kernel_shape=[2, 2], strides=[2, 2])


widths = [16, 32, 64, 128]
x, c, skips = "x", 3, []
for i, wd in enumerate(widths):
    x = conv(conv(x, c, wd), wd, wd)
    c = wd
    if i < len(widths) - 1:
        skips.append(x)
        x = node("MaxPool", [x], kernel_shape=[2, 2], strides=[2, 2])
for wd in reversed(widths[:-1]):
    x = node("Concat", [up(x, c, wd), skips.pop()], axis=1)
    x = conv(conv(x, 2 * wd, wd), wd, wd)
    c = wd
nodes.append(helper.make_node("Sigmoid", [conv(x, c, 2, 1, relu=False)], ["mask"]))
write_model(OUT, "unet", [1, 3, 256, 256], "mask", [1, 2, 256, 256], rng)
