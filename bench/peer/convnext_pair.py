"""ConvNeXt-Tiny (float32, 224x224, random weights) as timm exports it at opset 13, for nnrt's ONNX front end
(`nnrt run convnext.onnx`) against ONNX Runtime on the same file: a 4x4 stride-4 stem, blocks of a depthwise 7x7
convolution, a Transpose to channels-last, layer normalization composed of ReduceMean, Sub, Pow, ReduceMean, Add,
Sqrt, Div, Mul, Add, a 4x MLP as MatMul and Add with GELU by Erf, a per-channel layer scale (Mul), a Transpose back
and the residual Add; downsampling by the same normalization over the channel axis of the NCHW image and a 2x2
stride-2 convolution; depths 3, 3, 9, 3 and widths 96, 192, 384, 768; global average pooling, normalization and
the classifier. None of the kernels were tuned on it. Writes OUTDIR/convnext.onnx and OUTDIR/convnext.f32 (the NCHW
input). Usage: /usr/bin/python3 bench/peer/convnext_pair.py OUTDIR"""
import os
import sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import const, node, conv, linear, write_model  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(13)
EPS = 1e-6


def norm(x, c, axis):
    """Layer normalization over `axis` (of width c) as timm writes both of its forms."""
    mean = node("ReduceMean", [x], axes=[axis])
    d = node("Sub", [x, mean])
    var = node("ReduceMean", [node("Pow", [d, const(np.float32(2.0))])], axes=[axis])
    y = node("Div", [d, node("Sqrt", [node("Add", [var, const(np.float32(EPS))])])])
    shape = (c,) if axis == -1 else (c, 1, 1)
    g = const((1 + 0.1 * rng.standard_normal(shape)).astype(np.float32), "gamma")
    b = const((0.1 * rng.standard_normal(shape)).astype(np.float32), "beta")
    return node("Add", [node("Mul", [y, g]), b])


def gelu(h):
    return node("Mul", [node("Mul", [h, const(np.float32(0.5))]),
                        node("Add", [node("Erf", [node("Div", [h, const(np.float32(np.sqrt(2.0)))])]),
                                     const(np.float32(1.0))])])


def block(x, c):
    y = conv(x, c, c, 7, rng, group=c)
    y = node("Transpose", [y], perm=[0, 2, 3, 1])
    y = norm(y, c, -1)
    y = linear(gelu(linear(y, c, 4 * c, rng)), 4 * c, c, rng)
    y = node("Mul", [y, const((1e-1 * rng.standard_normal(c)).astype(np.float32), "scale")])
    y = node("Transpose", [y], perm=[0, 3, 1, 2])
    return node("Add", [x, y])


x = norm(conv("x", 3, 96, 4, rng, stride=4, pads=[0, 0, 0, 0]), 96, 1)
dims = [96, 192, 384, 768]
for stage, depth in enumerate([3, 3, 9, 3]):
    if stage > 0:
        x = conv(norm(x, dims[stage - 1], 1), dims[stage - 1], dims[stage], 2, rng, stride=2, pads=[0, 0, 0, 0])
    for _ in range(depth):
        x = block(x, dims[stage])
x = node("Flatten", [node("GlobalAveragePool", [x])])
x = norm(x, 768, -1)
w = const((rng.standard_normal((768, 1000)) * np.sqrt(1.0 / 768)).astype(np.float32), "fc_w")
b = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
y = node("Add", [node("MatMul", [x, w]), b])
write_model(OUT, "convnext", [1, 3, 224, 224], y, [1, 1000], rng)
