"""A small U-Net (float32, 1x3x256x256, 4 levels of two 3x3 Conv + Relu, 2x2 max pools down, 2x2 stride-2 ConvTranspose
up, skip connections concatenated over channels, a 1x1 Conv to 2 classes and a Sigmoid) as an ONNX model, for nnrt's ONNX
front end against ONNX Runtime on the same file. None of the kernels were tuned on it. Writes OUTDIR/unet.onnx and
OUTDIR/unet.f32 (the NCHW input). Usage: /usr/bin/python3 bench/peer/unet_pair.py OUTDIR"""
import os
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, inits, const, node, conv as convolution  # noqa: E402

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
graph = helper.make_graph(nodes, "unet", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 256, 256])],
                          [helper.make_tensor_value_info("mask", TensorProto.FLOAT, [1, 2, 256, 256])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
onnx.checker.check_model(model)
onnx.save(model, f"{OUT}/unet.onnx")
rng.standard_normal((1, 3, 256, 256)).astype(np.float32).tofile(f"{OUT}/unet.f32")
