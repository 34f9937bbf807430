"""A one-layer LSTM and a one-layer GRU over 64 time steps (input 256, hidden 512, batch 1, float32, random weights) as
ONNX models, for nnrt's ONNX front end (`nnrt run lstm.onnx`: one UNIDIRECTIONAL_SEQUENCE_LSTM; `nnrt run gru.onnx`:
the GRU unrolled step by step) against ONNX Runtime on the same files: the shape of a speech or text encoder's
recurrent layer. Writes OUTDIR/lstm.onnx, OUTDIR/gru.onnx, OUTDIR/grulbr.onnx (the GRU with linear_before_reset, as
PyTorch exports it), OUTDIR/bilstm.onnx and OUTDIR/bigru.onnx (both directions; the GRU with linear_before_reset) and
each one's inputs ([64, 1, 256], time-major) as OUTDIR/<name>.f32. Usage: /usr/bin/python3 bench/peer/lstm_pair.py OUTDIR"""
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
seq, batch, inputs, hidden = 64, 1, 256, 512


def write(op, gates, seed, name=None, directions=1, **attributes):
    rng = np.random.default_rng(seed)
    weights = [
        numpy_helper.from_array((rng.standard_normal((directions, gates * hidden, inputs)) / np.sqrt(inputs)).astype(np.float32), "W"),
        numpy_helper.from_array((rng.standard_normal((directions, gates * hidden, hidden)) / np.sqrt(hidden)).astype(np.float32), "R"),
        numpy_helper.from_array((rng.standard_normal((directions, 2 * gates * hidden)) * 0.1).astype(np.float32), "B")]
    if directions == 2:
        attributes["direction"] = "bidirectional"
    node = helper.make_node(op, ["x", "W", "R", "B"], ["Y", "Y_h"], hidden_size=hidden, **attributes)
    name = name or op.lower()
    graph = helper.make_graph([node], name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, [seq, batch, inputs])],
                              [helper.make_tensor_value_info("Y_h", TensorProto.FLOAT, [directions, batch, hidden])], weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, f"{OUT}/{name}.onnx")
    rng.standard_normal((seq, batch, inputs)).astype(np.float32).tofile(f"{OUT}/{name}.f32")


write("LSTM", 4, 5)
write("GRU", 3, 5)
write("GRU", 3, 5, "grulbr", linear_before_reset=1)  # as PyTorch's nn.GRU exports it
write("LSTM", 4, 6, "bilstm", directions=2)  # a speech or tagging encoder's bidirectional layers
write("GRU", 3, 6, "bigru", directions=2, linear_before_reset=1)
