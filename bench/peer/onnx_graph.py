"""The graph-building helpers of the peer model generators (bench/peer/*_pair.py): one list of nodes and one of
initializers per generator run, with fresh names numbered in order of creation, the convolution the image models
share, the transformer encoder layer encoder_pair.py, bert_pair.py and vit_pair.py write, and the writing of a
single-input model and its random input."""
import numpy as np
import onnx
from onnx import helper, numpy_helper, TensorProto

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


def write_model(out_dir, name, input_dims, output, output_dims, rng):
    """The graph of `nodes` and `inits` (float input "x" of input_dims, float output `output` of output_dims) as
    OUT_DIR/<name>.onnx (opset 13, IR 7, checked), and a random standard-normal input drawn from rng after everything
    else as OUT_DIR/<name>.f32."""
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, input_dims)],
                              [helper.make_tensor_value_info(output, TensorProto.FLOAT, output_dims)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    rng.standard_normal(input_dims).astype(np.float32).tofile(f"{out_dir}/{name}.f32")


def conv(x, cin, cout, kernel, rng, stride=1, group=1, pads=None, bias=True):
    """Conv of random He-scaled weights [cout, cin / group, kh, kw] and (bias) a random bias of scale 0.1, drawn from rng
    in that order; kernel an int or (kh, kw); padded by half the kernel on each side unless pads are given. No
    activation: the models add their own."""
    kh, kw = (kernel, kernel) if isinstance(kernel, int) else kernel
    fan_in = cin // group * kh * kw
    inputs = [x, const((rng.standard_normal((cout, cin // group, kh, kw)) * np.sqrt(2.0 / fan_in)).astype(np.float32), "w")]
    if bias:
        inputs.append(const((rng.standard_normal(cout) * 0.1).astype(np.float32), "b"))
    attrs = dict(kernel_shape=[kh, kw], strides=[stride, stride],
                 pads=[kh // 2, kw // 2, kh // 2, kw // 2] if pads is None else pads)
    if group != 1:
        attrs["group"] = group
    return node("Conv", inputs, **attrs)


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


def layer_norm(x, hidden, rng, eps):
    """Layer normalization over the last axis of width hidden, composed as exporters write it (ReduceMean, Sub, Pow,
    ReduceMean, Add eps, Sqrt, Div), then the scale and shift: random gamma near 1 and beta near 0, drawn from rng in
    that order."""
    mean = node("ReduceMean", [x], axes=[-1])
    d = node("Sub", [x, mean])
    var = node("ReduceMean", [node("Pow", [d, const(np.float32(2.0))])], axes=[-1])
    std = node("Sqrt", [node("Add", [var, const(np.float32(eps))])])
    g = const((1 + 0.1 * rng.standard_normal(hidden)).astype(np.float32), "gamma")
    beta = const((0.1 * rng.standard_normal(hidden)).astype(np.float32), "beta")
    return node("Add", [node("Mul", [node("Div", [d, std]), g]), beta])
