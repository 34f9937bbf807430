"""The graph-building helpers of the peer model generators (encoder_pair.py, bert_pair.py): one list of nodes and one
of initializers per generator run, with fresh names numbered in order of creation, and the transformer encoder layer
both write."""
import numpy as np
from onnx import helper, numpy_helper

nodes, inits = [], []
_count = [0]


def fresh(prefix):
    _count[0] += 1
    return f"{prefix}{_count[0]}"


def const(arr, prefix="c"):
    t = numpy_helper.from_array(np.asarray(arr), fresh(prefix))
    inits.append(t)
    return t.name


def node(op, inputs, n_out=1, **attrs):
    outs = [fresh(op.lower()) for _ in range(n_out)]
    nodes.append(helper.make_node(op, inputs, outs, **attrs))
    return outs[0] if n_out == 1 else outs


def linear(x, n_in, n_out, rng):
    """MatMul by a random [n_in, n_out] matrix and Add of a random bias, as exporters write a projection."""
    w = const((rng.standard_normal((n_in, n_out)) / np.sqrt(n_in)).astype(np.float32), "w")
    b = const((rng.standard_normal(n_out) * 0.02).astype(np.float32), "b")
    return node("Add", [node("MatMul", [x, w]), b])


def encoder_layer(x, rng, layer_norm, seq, hidden, n_heads, ffn, mask_bias=None):
    """One post-norm transformer encoder layer on x [1, seq, hidden]: scaled dot-product attention (plus mask_bias
    on the scores when given), residual Add and layer_norm, a GELU-by-Erf feed-forward of width ffn, residual Add and
    layer_norm."""
    d = hidden // n_heads

    def heads(t):  # [1, seq, hidden] -> [1, n_heads, seq, d]
        r = node("Reshape", [t, const(np.array([1, seq, n_heads, d], dtype=np.int64))])
        return node("Transpose", [r], perm=[0, 2, 1, 3])

    q, k, v = (heads(linear(x, hidden, hidden, rng)), heads(linear(x, hidden, hidden, rng)),
               heads(linear(x, hidden, hidden, rng)))
    kt = node("Transpose", [k], perm=[0, 1, 3, 2])
    scores = node("Div", [node("MatMul", [q, kt]), const(np.float32(np.sqrt(d)))])
    if mask_bias is not None:
        scores = node("Add", [scores, mask_bias])
    attn = node("MatMul", [node("Softmax", [scores], axis=-1), v])
    merged = node("Reshape", [node("Transpose", [attn], perm=[0, 2, 1, 3]),
                              const(np.array([1, seq, hidden], dtype=np.int64))])
    x = layer_norm(node("Add", [linear(merged, hidden, hidden, rng), x]))
    h = linear(x, hidden, ffn, rng)
    gelu = node("Mul", [node("Mul", [h, const(np.float32(0.5))]),
                        node("Add", [node("Erf", [node("Div", [h, const(np.float32(np.sqrt(2.0)))])]),
                                     const(np.float32(1.0))])])
    return layer_norm(node("Add", [linear(gelu, ffn, hidden, rng), x]))
