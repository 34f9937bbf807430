"""ResNet-18 (float32, 224x224, batch norm folded into the convolutions' biases, random He-scaled weights) as an ONNX
model, for nnrt's ONNX front end (`nnrt run resnet18.onnx`) against ONNX Runtime on the same file: a model that neither
the kernels nor the thresholds were tuned on. Writes OUTDIR/resnet18.onnx and OUTDIR/resnet18.f32 (the NCHW input).
Usage: /usr/bin/python3 bench/peer/resnet_pair.py OUTDIR"""
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
rng = np.random.default_rng(18)
nodes, inits = [], []
count = [0]


def name(prefix):
    count[0] += 1
    return f"{prefix}{count[0]}"


def conv(x, cin, cout, k, stride, relu):
    w = numpy_helper.from_array((rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))).astype(np.float32), name("w"))
    b = numpy_helper.from_array((rng.standard_normal(cout) * 0.1).astype(np.float32), name("b"))
    inits.extend([w, b])
    y = name("conv")
    nodes.append(helper.make_node("Conv", [x, w.name, b.name], [y], kernel_shape=[k, k], strides=[stride, stride],
                                  pads=[k // 2] * 4))
    if not relu:
        return y
    r = name("relu")
    nodes.append(helper.make_node("Relu", [y], [r]))
    return r


def block(x, cin, cout, stride):
    y = conv(x, cin, cout, 3, stride, True)
    y = conv(y, cout, cout, 3, 1, False)
    skip = x if stride == 1 and cin == cout else conv(x, cin, cout, 1, stride, False)
    s, r = name("add"), name("relu")
    nodes.append(helper.make_node("Add", [y, skip], [s]))
    nodes.append(helper.make_node("Relu", [s], [r]))
    return r


x = conv("x", 3, 64, 7, 2, True)
p = name("pool")
nodes.append(helper.make_node("MaxPool", [x], [p], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]))
x, c = p, 64
for cout, stride in [(64, 1), (64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1)]:
    x = block(x, c, cout, stride)
    c = cout
g = name("gap")
nodes.append(helper.make_node("GlobalAveragePool", [x], [g]))
f = name("flat")
nodes.append(helper.make_node("Flatten", [g], [f]))
w = numpy_helper.from_array((rng.standard_normal((1000, 512)) * np.sqrt(1.0 / 512)).astype(np.float32), "fc_w")
b = numpy_helper.from_array((rng.standard_normal(1000) * 0.1).astype(np.float32), "fc_b")
inits.extend([w, b])
nodes.append(helper.make_node("Gemm", ["%s" % f, "fc_w", "fc_b"], ["logits"], transB=1))
graph = helper.make_graph(nodes, "resnet18", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 224, 224])],
                          [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 1000])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 7
onnx.checker.check_model(model)
onnx.save(model, f"{OUT}/resnet18.onnx")
rng.standard_normal((1, 3, 224, 224)).astype(np.float32).tofile(f"{OUT}/resnet18.f32")
