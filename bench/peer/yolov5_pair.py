"""A YOLOv5-shaped detector (float32, 320x320, random He-scaled weights) as ultralytics exports it: a strided
convolutional backbone (SiLU as x * Sigmoid(x)) to three scales (40x40x128, 20x20x256, 10x10x512), and per scale the
detection head that works on 5-D values: a 1x1 Conv to 3 * 85 channels, Reshape to [1, 3, 85, ny, nx], Transpose
[0, 1, 3, 4, 2], Sigmoid, Split (2, 2, 81) on the last axis, xy = (xy * 2 + grid) * stride, wh = (wh * 2) ** 2 *
anchor_grid, Concat, Reshape to [1, 3 * ny * nx, 85]; the scales concatenated. NNAPI's operations take rank 4 at
most: nnrt's ONNX front end holds the 5-D values packed (docs/onnx.md). Writes OUTDIR/yolov5.onnx and
OUTDIR/yolov5.f32 (the NCHW input). Usage: /usr/bin/python3 bench/peer/yolov5_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import nodes, const, node, conv as convolution, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(55)
na, nc = 3, 80
no = nc + 5


def conv(x, cin, cout, k, stride=1):
    y = convolution(x, cin, cout, k, rng, stride)
    return node("Mul", [y, node("Sigmoid", [y])])


x = conv("x", 3, 32, 3, 2)                     # 160
x = conv(conv(x, 32, 64, 3, 2), 64, 64, 3)     # 80
scales = []
for cin, cout in [(64, 128), (128, 256), (256, 512)]:  # 40, 20, 10
    x = conv(conv(x, cin, cout, 3, 2), cout, cout, 3)
    scales.append((x, cout))
outputs = []
for (feature, channels), stride in zip(scales, [8, 16, 32]):
    ny = 320 // stride
    y = convolution(feature, channels, na * no, 1, rng)
    y = node("Reshape", [y, const(np.array([1, na, no, ny, ny], dtype=np.int64))])
    y = node("Sigmoid", [node("Transpose", [y], perm=[0, 1, 3, 4, 2])])
    xy, wh, conf = node("Split", [y, const(np.array([2, 2, nc + 1], dtype=np.int64))], 3, axis=4)
    grid = const(rng.uniform(-0.5, ny, (1, na, ny, ny, 2)).astype(np.float32))
    xy = node("Mul", [node("Add", [node("Mul", [xy, const(np.float32(2))]), grid]), const(np.float32(stride))])
    anchors = const(rng.uniform(10, 300, (1, na, ny, ny, 2)).astype(np.float32))
    wh = node("Mul", [node("Pow", [node("Mul", [wh, const(np.float32(2))]), const(np.float32(2))]), anchors])
    y = node("Concat", [xy, wh, conf], axis=4)
    outputs.append(node("Reshape", [y, const(np.array([1, na * ny * ny, no], dtype=np.int64))]))
nodes.append(helper.make_node("Concat", outputs, ["detections"], axis=1))
write_model(OUT, "yolov5", [1, 3, 320, 320], "detections", [1, na * 2100, no], rng)
