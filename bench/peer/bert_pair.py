"""A BERT-base-shaped model as exporters write it at opset 17, for nnrt's ONNX front end against ONNX Runtime:
int64 input_ids and attention_mask [1, 128], word and position embeddings (Gather), the LayerNormalization operator,
the attention mask as (1 - mask) * -10000 added to the scores, 2 layers of hidden 256 with 4 heads and GELU by Erf,
and a pooler (the first token through Gemm and Tanh). Outputs: last_hidden_state [1, 128, 256] and pooled [1, 256].
Writes OUTDIR/bert.onnx, OUTDIR/bert.ids.i64, OUTDIR/bert.mask.i64 (the last 28 tokens masked).
Usage: /usr/bin/python3 bench/peer/bert_pair.py OUTDIR"""
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto
from onnx_graph import const, encoder_layer, inits, node, nodes

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
S, H, HEADS, FFN, LAYERS, VOCAB = 128, 256, 4, 1024, 2, 1000
rng = np.random.default_rng(11)


def layer_norm(x):
    g = const((1 + 0.1 * rng.standard_normal(H)).astype(np.float32), "gamma")
    beta = const((0.1 * rng.standard_normal(H)).astype(np.float32), "beta")
    return node("LayerNormalization", [x, g, beta], axis=-1, epsilon=1e-12)


words = const((0.5 * rng.standard_normal((VOCAB, H))).astype(np.float32), "word_emb")
positions = const((0.5 * rng.standard_normal((S, H))).astype(np.float32), "pos_emb")
position_ids = const(np.arange(S, dtype=np.int64).reshape(1, S), "pos_ids")
x = layer_norm(node("Add", [node("Gather", [words, "input_ids"], axis=0), node("Gather", [positions, position_ids], axis=0)]))
mask = node("Cast", [node("Unsqueeze", ["attention_mask", const(np.array([1, 2], dtype=np.int64))])], to=TensorProto.FLOAT)
bias = node("Mul", [node("Sub", [const(np.float32(1.0)), mask]), const(np.float32(-10000.0))])
for _ in range(LAYERS):
    x = encoder_layer(x, rng, layer_norm, S, H, HEADS, FFN, bias)
nodes[-1].output[0] = "last_hidden_state"
first = node("Gather", ["last_hidden_state", const(np.array(0, dtype=np.int64))], axis=1)
pool_w = const((rng.standard_normal((H, H)) / np.sqrt(H)).astype(np.float32), "pool_w")
pool_b = const((rng.standard_normal(H) * 0.02).astype(np.float32), "pool_b")
nodes.append(helper.make_node("Tanh", [node("Gemm", [first, pool_w, pool_b])], ["pooled"]))
graph = helper.make_graph(
    nodes, "bert",
    [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, S]),
     helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [1, S])],
    [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [1, S, H]),
     helper.make_tensor_value_info("pooled", TensorProto.FLOAT, [1, H])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, f"{OUT}/bert.onnx")
rng.integers(0, VOCAB, (1, S)).astype(np.int64).tofile(f"{OUT}/bert.ids.i64")
m = np.ones((1, S), dtype=np.int64)
m[0, 100:] = 0
m.tofile(f"{OUT}/bert.mask.i64")
