"""A one-layer LSTM over 64 time steps (input 256, hidden 512, batch 1, float32, random weights) as an ONNX model, for
nnrt's ONNX front end (`nnrt run lstm.onnx`, one UNIDIRECTIONAL_SEQUENCE_LSTM) against ONNX Runtime on the same file:
the shape of a speech or text encoder's recurrent layer. Writes OUTDIR/lstm.onnx and OUTDIR/lstm.f32 (the input,
[64, 1, 256] time-major). Usage: /usr/bin/python3 bench/peer/lstm_pair.py OUTDIR"""
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else "."
seq, batch, inputs, hidden = 64, 1, 256, 512
rng = np.random.default_rng(5)
weights = [numpy_helper.from_array((rng.standard_normal((1, 4 * hidden, inputs)) / np.sqrt(inputs)).astype(np.float32), "W"),
           numpy_helper.from_array((rng.standard_normal((1, 4 * hidden, hidden)) / np.sqrt(hidden)).astype(np.float32), "R"),
           numpy_helper.from_array((rng.standard_normal((1, 8 * hidden)) * 0.1).astype(np.float32), "B")]
lstm = helper.make_node("LSTM", ["x", "W", "R", "B"], ["Y", "Y_h"], hidden_size=hidden)
graph = helper.make_graph([lstm], "lstm", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [seq, batch, inputs])],
                          [helper.make_tensor_value_info("Y_h", TensorProto.FLOAT, [1, batch, hidden])], weights)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
model.ir_version = 7
onnx.checker.check_model(model)
onnx.save(model, f"{OUT}/lstm.onnx")
rng.standard_normal((seq, batch, inputs)).astype(np.float32).tofile(f"{OUT}/lstm.f32")
