"""A quantized MobileNet-like model written twice from the same int8 weights, for the cpu driver's
quantized fast path against ONNX Runtime (its QLinearConv kernels):
  qmobilenet.yaml + qmobilenet.bin   nnrt's model format: TENSOR_QUANT8_ASYMM_SIGNED activations,
                                     TENSOR_QUANT8_SYMM_PER_CHANNEL filters, int32 biases, RELU6 fused
  qmobilenet.onnx                    the same as QLinearConv nodes (int8 activations, per-channel int8 weights)
  qmobilenet.nhwc.q8 / .nchw.q8      one input in both layouts
The network is MobileNet v1 1.0 224's convolutional body (conv 3x3/2 3->32, then 13 depthwise 3x3 +
pointwise 1x1 blocks, ending at 7x7x1024). Every activation is quantized with scale 6/255 and zero
point -128: [0, 6], so RELU6 is the saturation itself in ONNX and the fused activation in NNAPI.
With --unsigned the activations are uint8 instead (TENSOR_QUANT8_ASYMM, zero point 0; input zero
point 128), written as qmobilenet_u8.*: ONNX Runtime's fast kernels take uint8 activations with
int8 weights, and are much slower on int8 activations.
Usage: /usr/bin/python3 quant_pair.py OUTDIR [--unsigned]"""
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
UNSIGNED = "--unsigned" in sys.argv
NAME = "qmobilenet_u8" if UNSIGNED else "qmobilenet"
NNAPI_TYPE = "TENSOR_QUANT8_ASYMM" if UNSIGNED else "TENSOR_QUANT8_ASYMM_SIGNED"
ONNX_TYPE, NP_TYPE = (TensorProto.UINT8, np.uint8) if UNSIGNED else (TensorProto.INT8, np.int8)
rng = np.random.default_rng(1)
ACT_SCALE, ACT_ZERO = 6.0 / 255.0, (0 if UNSIGNED else -128)
IN_SCALE, IN_ZERO = 1.0 / 64.0, (128 if UNSIGNED else 0)

operands, ops, inits, nodes, blob = [], [], [], [], bytearray()
consts = {}


def scalar(value):
    if value not in consts:
        consts[value] = f"c{len(consts)}"
        operands.append(f"  - {{name: {consts[value]}, type: INT32, value: {value}}}")
    return consts[value]


def blob_operand(name, typ, arr, extra=""):
    global blob
    off = len(blob)
    blob += arr.tobytes()
    operands.append(f"  - {{name: {name}, type: {typ}, dims: {list(arr.shape)}, file: {NAME}.bin, offset: {off}, "
                    f"length: {arr.nbytes}{extra}}}")


def layer(i, prev, onnx_prev, h, cin, cout, k, stride, depthwise, in_scale, in_zero):
    pad = k // 2
    oh = (h + 2 * pad - k) // stride + 1
    fan_in = k * k * (1 if depthwise else cin)
    w = rng.integers(-127, 128, size=(cout, 1 if depthwise else cin, k, k), dtype=np.int8)
    w_scale = (rng.uniform(0.5, 1.5, cout) * 3.0 / (127.0 * np.sqrt(fan_in) * in_scale * 40)).astype(np.float32)
    bias = rng.integers(-2000, 2000, size=cout, dtype=np.int32)
    # nnrt: filter [cout, k, k, cin] or [1, k, k, cout]; per-channel scales along the output channels.
    if depthwise:
        wf = np.ascontiguousarray(w.reshape(cout, k, k).transpose(1, 2, 0).reshape(1, k, k, cout))
        channel_dim = 3
    else:
        wf = np.ascontiguousarray(w.transpose(0, 2, 3, 1))
        channel_dim = 0
    scales = ", ".join(f"{s:.9g}" for s in w_scale)
    blob_operand(f"K{i}", "TENSOR_QUANT8_SYMM_PER_CHANNEL", wf, f", channel_quant: {{dim: {channel_dim}, scales: [{scales}]}}")
    blob_operand(f"B{i}", "TENSOR_INT32", bias)
    out = f"t{i}"
    operands.append(f"  - {{name: {out}, type: {NNAPI_TYPE}, dims: [1, {oh}, {oh}, {cout}], "
                    f"scale: {ACT_SCALE:.9g}, zero_point: {ACT_ZERO}}}")
    p, s = scalar(pad), scalar(stride)
    if depthwise:
        ops.append(f"  - {{type: DEPTHWISE_CONV_2D, inputs: [{prev}, K{i}, B{i}, {p}, {p}, {p}, {p}, {s}, {s}, "
                   f"{scalar(1)}, {scalar(3)}], outputs: [{out}]}}")
    else:
        ops.append(f"  - {{type: CONV_2D, inputs: [{prev}, K{i}, B{i}, {p}, {p}, {p}, {p}, {s}, {s}, {scalar(3)}], "
                   f"outputs: [{out}]}}")
    # ONNX: QLinearConv(x, x_scale, x_zero, w, w_scale, w_zero, y_scale, y_zero, bias)
    names = [f"xs{i}", f"xz{i}", f"W{i}", f"ws{i}", f"wz{i}", f"ys{i}", f"yz{i}", f"Bo{i}"]
    inits.extend([
        numpy_helper.from_array(np.array(in_scale, np.float32), names[0]),
        numpy_helper.from_array(np.array(in_zero, NP_TYPE), names[1]),
        numpy_helper.from_array(w, names[2]),
        numpy_helper.from_array(w_scale, names[3]),
        numpy_helper.from_array(np.zeros(cout, np.int8), names[4]),
        numpy_helper.from_array(np.array(ACT_SCALE, np.float32), names[5]),
        numpy_helper.from_array(np.array(ACT_ZERO, NP_TYPE), names[6]),
        numpy_helper.from_array(bias, names[7]),
    ])
    attrs = dict(pads=[pad] * 4, strides=[stride, stride], kernel_shape=[k, k])
    if depthwise:
        attrs["group"] = cout
    nodes.append(helper.make_node("QLinearConv", [onnx_prev] + names, [f"q{i}"], **attrs))
    return out, f"q{i}", oh


def main():
    operands.append(f"  - {{name: x, type: {NNAPI_TYPE}, dims: [1, 224, 224, 3], scale: {IN_SCALE}, "
                    f"zero_point: {IN_ZERO}}}")
    prev, onnx_prev, h, c, i = "x", "x", 224, 32, 0
    prev, onnx_prev, h = layer(i, prev, onnx_prev, 224, 3, 32, 3, 2, False, IN_SCALE, IN_ZERO)
    blocks = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2)] + [(512, 1)] * 5 + [(1024, 2), (1024, 1)]
    for cout, stride in blocks:
        i += 1
        prev, onnx_prev, h = layer(i, prev, onnx_prev, h, c, c, 3, stride, True, ACT_SCALE, ACT_ZERO)
        i += 1
        prev, onnx_prev, h = layer(i, prev, onnx_prev, h, c, cout, 1, 1, False, ACT_SCALE, ACT_ZERO)
        c = cout
    with open(f"{OUT}/{NAME}.bin", "wb") as f:
        f.write(blob)
    with open(f"{OUT}/{NAME}.yaml", "w") as f:
        f.write("version: 1\ndescription: quantized MobileNet v1 body (int8, per-channel filters)\noperands:\n")
        f.write("\n".join(operands) + "\noperations:\n" + "\n".join(ops) + f"\ninputs: [x]\noutputs: [{prev}]\n")
    graph = helper.make_graph(nodes, "qmobilenet", [helper.make_tensor_value_info("x", ONNX_TYPE, [1, 3, 224, 224])],
                              [helper.make_tensor_value_info(onnx_prev, ONNX_TYPE, [1, c, h, h])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, f"{OUT}/{NAME}.onnx")
    x = rng.integers(0, 256, size=(1, 224, 224, 3)).astype(np.uint8).view(NP_TYPE)
    x.tofile(f"{OUT}/{NAME}.nhwc.q8")
    np.ascontiguousarray(x.transpose(0, 3, 1, 2)).tofile(f"{OUT}/{NAME}.nchw.q8")
    print(f"wrote {OUT}/{NAME}.{{yaml,bin,onnx,nhwc.q8,nchw.q8}}: output t{i} [1, {h}, {h}, {c}]")


main()
