"""Small models, where a runtime's cost per execution and per operation shows beside the kernels' (float32, batch 1,
random weights), as ONNX models for nnrt's ONNX front end against ONNX Runtime on the same files. None of the kernels
were tuned on them. Writes OUTDIR/<name>.onnx and OUTDIR/<name>.f32 (the input) for:
  tinymlp  784-256-256-10 (Gemm + Relu, Softmax): 11 us of kernels
  kws      keyword spotting over 40 features x 100 steps: four Conv1d k3 of 64 channels + Relu, ReduceMean, Gemm
  dscnn    the same with depthwise separable Conv1d blocks and BatchNormalization (folded into the convolutions)
  cifar    ResNet-20 for 32x32 CIFAR images (3 stages of 3 basic blocks, 16/32/64 channels)
  tinytf   two transformer encoder layers, 16 tokens of 64, 4 heads, feed-forward 256, GELU by Erf
  autoenc  a 64x64 convolutional autoencoder (two stride-2 Conv, two stride-2 ConvTranspose, Sigmoid)
Usage: /usr/bin/python3 bench/peer/small_pair.py OUTDIR"""
import os
import sys
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_graph as g  # noqa: E402
from onnx_graph import node, const, conv, encoder_layer, write_model, layer_norm as onnx_layer_norm  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."


def reset():
    g.nodes.clear()
    g.inits.clear()
    g._count[0] = 0


def gemm(x, n_in, n_out, rng):
    w = const((rng.standard_normal((n_out, n_in)) * np.sqrt(2.0 / n_in)).astype(np.float32), "w")
    b = const((rng.standard_normal(n_out) * 0.1).astype(np.float32), "b")
    return node("Gemm", [x, w, b], transB=1)


def conv1d(x, cin, cout, k, rng, group=1):
    w = const((rng.standard_normal((cout, cin // group, k)) * np.sqrt(2.0 / (cin // group * k))).astype(np.float32), "w")
    b = const((rng.standard_normal(cout) * 0.1).astype(np.float32), "b")
    attrs = dict(pads=[k // 2, k // 2])
    if group != 1:
        attrs["group"] = group
    return node("Conv", [x, w, b], **attrs)


def batch_norm(x, c, rng):
    return node("BatchNormalization", [x, const((1 + 0.1 * rng.standard_normal(c)).astype(np.float32)),
                                       const((0.1 * rng.standard_normal(c)).astype(np.float32)),
                                       const((0.1 * rng.standard_normal(c)).astype(np.float32)),
                                       const((1 + 0.1 * np.abs(rng.standard_normal(c))).astype(np.float32))])


reset()
rng = np.random.default_rng(0)
x = node("Relu", [gemm("x", 784, 256, rng)])
x = node("Relu", [gemm(x, 256, 256, rng)])
write_model(OUT, "tinymlp", [1, 784], node("Softmax", [gemm(x, 256, 10, rng)], axis=1), [1, 10], rng)

reset()
rng = np.random.default_rng(1)
x, c = "x", 40
for _ in range(4):
    x, c = node("Relu", [conv1d(x, c, 64, 3, rng)]), 64
write_model(OUT, "kws", [1, 40, 100], gemm(node("ReduceMean", [x], axes=[2], keepdims=0), 64, 12, rng), [1, 12], rng)

reset()
rng = np.random.default_rng(2)
x = node("Relu", [batch_norm(conv1d("x", 40, 64, 3, rng), 64, rng)])
for _ in range(4):
    x = node("Relu", [batch_norm(conv1d(x, 64, 64, 3, rng, group=64), 64, rng)])
    x = node("Relu", [batch_norm(conv1d(x, 64, 64, 1, rng), 64, rng)])
write_model(OUT, "dscnn", [1, 40, 100], gemm(node("ReduceMean", [x], axes=[2], keepdims=0), 64, 12, rng), [1, 12], rng)

reset()
rng = np.random.default_rng(3)
x, c = node("Relu", [conv("x", 3, 16, 3, rng)]), 16
for stage, width in enumerate([16, 32, 64]):
    for block in range(3):
        stride = 2 if block == 0 and stage > 0 else 1
        y = conv(node("Relu", [conv(x, c, width, 3, rng, stride=stride)]), width, width, 3, rng)
        shortcut = x if stride == 1 and c == width else conv(x, c, width, 1, rng, stride=stride, pads=[0, 0, 0, 0])
        x, c = node("Relu", [node("Add", [y, shortcut])]), width
write_model(OUT, "cifar", [1, 3, 32, 32], gemm(node("Flatten", [node("GlobalAveragePool", [x])]), 64, 10, rng),
            [1, 10], rng)

reset()
rng = np.random.default_rng(4)
H = 64


def layer_norm(x):
    return onnx_layer_norm(x, H, rng, 1e-12)


x = "x"
for _ in range(2):
    x = encoder_layer(x, rng, layer_norm, 16, H, 4, 256)
write_model(OUT, "tinytf", [1, 16, H], x, [1, 16, H], rng)

reset()
rng = np.random.default_rng(5)


def deconv(x, cin, cout):
    w = const((rng.standard_normal((cin, cout, 2, 2)) * np.sqrt(2.0 / (cin * 4))).astype(np.float32), "w")
    return node("ConvTranspose", [x, w, const(np.zeros(cout, np.float32))], kernel_shape=[2, 2], strides=[2, 2])


x = node("Relu", [conv("x", 1, 16, 3, rng, stride=2)])
x = node("Relu", [conv(x, 16, 32, 3, rng, stride=2)])
x = node("Relu", [deconv(x, 32, 16)])
write_model(OUT, "autoenc", [1, 1, 64, 64], node("Sigmoid", [deconv(x, 16, 1)]), [1, 1, 64, 64], rng)
