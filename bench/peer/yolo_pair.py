"""Tiny-YOLOv3-shaped detector (float32, 320x320, random He-scaled weights, batch norm folded into the biases) as an
ONNX model, for nnrt's ONNX front end (`nnrt run yolo.onnx`) against ONNX Runtime on the same file: 3x3
convolutions with LeakyRelu(0.1), 2x2 max pools (the last one stride 1, padded), two detection heads, the second
after a nearest-neighbour Resize x2 concatenated over channels with an earlier feature map; the two heads'
outputs flattened and concatenated into one output. None of the kernels were tuned on it. Writes OUTDIR/yolo.onnx and
OUTDIR/yolo.f32 (the NCHW input). Usage: /usr/bin/python3 bench/peer/yolo_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(6)


def conv(x, cin, cout, k, leaky=True):
    y = convolution(x, cin, cout, k, rng)
    return node("LeakyRelu", [y], alpha=0.1) if leaky else y


def pool(x, stride=2):
    pads = [0, 0, 1, 1] if stride == 1 else [0, 0, 0, 0]
    return node("MaxPool", [x], kernel_shape=[2, 2], strides=[stride, stride], pads=pads)


x, c = "x", 3
for i, cout in enumerate([16, 32, 64, 128, 256]):
    x = conv(x, c, cout, 3)
    c = cout
    if i == 4:
        route = x  # 20x20x256
    x = pool(x)
x = pool(conv(x, 256, 512, 3), 1)
x = conv(conv(x, 512, 1024, 3), 1024, 256, 1)
head1 = conv(conv(x, 256, 512, 3), 512, 255, 1, leaky=False)
up = node("Resize", [conv(x, 256, 128, 1), "", const(np.array([1, 1, 2, 2], np.float32), "scales")], mode="nearest")
y = node("Concat", [up, route], axis=1)
head2 = conv(conv(y, 384, 256, 3), 256, 255, 1, leaky=False)
flat = [node("Reshape", [h, const(np.array([1, 255, -1], np.int64), "shape")]) for h in (head1, head2)]
nodes.append(helper.make_node("Concat", flat, ["boxes"], axis=2))
write_model(OUT, "yolo", [1, 3, 320, 320], "boxes", [1, 255, 500], rng)
