"""A small Vision Transformer (ViT-Ti/16 shaped: 224x224 image, 16x16 patches by a stride-16 Conv, a class token,
learned position embeddings, 4 pre-norm-free encoder layers of hidden 192, 3 heads, FFN 768, float32) as an ONNX model,
for nnrt's ONNX front end against ONNX Runtime on the same file: the patch embedding's Conv output reshaped and
transposed into tokens, Concat of the class token, Add of the positions, the encoder layers of encoder_pair.py, the
class token's row Gathered into a Gemm classifier. None of the kernels were tuned on it. Writes OUTDIR/vit.onnx and
OUTDIR/vit.f32 (the NCHW input). Usage: /usr/bin/python3 bench/peer/vit_pair.py OUTDIR"""
import os
import sys
import numpy as np
from onnx import helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from onnx_graph import const, encoder_layer, node, nodes, write_model, layer_norm as onnx_layer_norm  # noqa: E402

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
H, HEADS, FFN, LAYERS, PATCHES = 192, 3, 768, 4, 196
S = PATCHES + 1
rng = np.random.default_rng(8)


def layer_norm(x):
    return onnx_layer_norm(x, H, rng, 1e-6)


w = const((rng.standard_normal((H, 3, 16, 16)) * np.sqrt(2.0 / 768)).astype(np.float32), "patch_w")
b = const((rng.standard_normal(H) * 0.1).astype(np.float32), "patch_b")
patches = node("Conv", ["x", w, b], kernel_shape=[16, 16], strides=[16, 16])  # [1, H, 14, 14]
tokens = node("Transpose", [node("Reshape", [patches, const(np.array([1, H, PATCHES], np.int64))])], perm=[0, 2, 1])
cls = const((rng.standard_normal((1, 1, H)) * 0.02).astype(np.float32), "cls")
x = node("Add", [node("Concat", [cls, tokens], axis=1), const((rng.standard_normal((1, S, H)) * 0.02).astype(np.float32), "pos")])
for _ in range(LAYERS):
    x = encoder_layer(x, rng, layer_norm, S, H, HEADS, FFN)
first = node("Gather", [x, const(np.array(0, np.int64), "idx")], axis=1)  # [1, H]
fw = const((rng.standard_normal((1000, H)) / np.sqrt(H)).astype(np.float32), "fc_w")
fb = const((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
nodes.append(helper.make_node("Gemm", [first, fw, fb], ["logits"], transB=1))
write_model(OUT, "vit", [1, 3, 224, 224], "logits", [1, 1000], rng)
