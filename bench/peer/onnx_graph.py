"""The graph-building helpers of the peer model generators (encoder_pair.py, bert_pair.py): one list of nodes and one
of initializers per generator run, with fresh names numbered in order of creation."""
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
