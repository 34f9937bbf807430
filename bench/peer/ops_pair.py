"""Single ONNX operators at the sizes real models run them (an image's 64x112x112 activations, a transformer's
128x768 rows, a classifier's 512x1000 scores, ...), one model each, for nnrt's ONNX front end against ONNX Runtime
on the same files: where a reference kernel is slow, one operation shows it (`bash bench/peer/ops_compare.sh`).
Writes OUTDIR/<name>.onnx, OUTDIR/<name>.f32 (the input) and OUTDIR/ops.txt (name and input dimensions per line).
Usage: /usr/bin/python3 bench/peer/ops_pair.py OUTDIR"""
import sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper
rng=np.random.default_rng(3)
OUT = sys.argv[1] if len(sys.argv) > 1 else "."
out = open(f'{OUT}/ops.txt', 'w')
def model(name, nodes, inshape, outshape, inits=(), opset=13, outdtype=TensorProto.FLOAT):
    g=helper.make_graph(nodes,name,[helper.make_tensor_value_info('x',TensorProto.FLOAT,inshape)],[helper.make_tensor_value_info('y',outdtype,outshape)],list(inits))
    m=helper.make_model(g,opset_imports=[helper.make_opsetid('',opset)]); m.ir_version=7
    onnx.save(m, f'{OUT}/{name}.onnx')
    rng.standard_normal(inshape).astype(np.float32).tofile(f'{OUT}/{name}.f32')
    out.write(f"{name} {','.join(map(str,inshape))}\n")
def c(name, arr): return numpy_helper.from_array(np.asarray(arr), name)
N=helper.make_node
model('softmax', [N('Softmax',['x'],['y'],axis=-1)], [128,1000],[128,1000])
model('softmax_attn', [N('Softmax',['x'],['y'],axis=-1)], [1,4,128,128],[1,4,128,128])
model('sigmoid', [N('Sigmoid',['x'],['y'])], [1,64,112,112],[1,64,112,112])
model('tanh', [N('Tanh',['x'],['y'])], [1,64,112,112],[1,64,112,112])
model('erf_gelu', [N('Div',['x','s'],['d']),N('Erf',['d'],['e']),N('Add',['e','one'],['a']),N('Mul',['x','a'],['m']),N('Mul',['m','half'],['y'])], [128,3072],[128,3072], [c('s',np.float32(1.4142135)),c('one',np.float32(1)),c('half',np.float32(0.5))])
model('layernorm', [N('ReduceMean',['x'],['mu'],axes=[-1]),N('Sub',['x','mu'],['d']),N('Mul',['d','d'],['sq']),N('ReduceMean',['sq'],['var'],axes=[-1]),N('Add',['var','eps'],['ve']),N('Sqrt',['ve'],['sd']),N('Div',['d','sd'],['n']),N('Mul',['n','g'],['ng']),N('Add',['ng','b'],['y'])], [128,768],[128,768],[c('eps',np.float32(1e-5)),c('g',rng.standard_normal(768).astype(np.float32)),c('b',rng.standard_normal(768).astype(np.float32))])
model('reducemean_hw', [N('ReduceMean',['x'],['y'],axes=[2,3],keepdims=1)], [1,512,28,28],[1,512,1,1])
model('gap', [N('GlobalAveragePool',['x'],['y'])], [1,1024,14,14],[1,1024,1,1])
model('transpose_0213', [N('Transpose',['x'],['y'],perm=[0,2,1,3])], [1,128,12,64],[1,12,128,64])
model('transpose_big', [N('Transpose',['x'],['y'],perm=[0,2,3,1])], [1,64,112,112],[1,112,112,64])
model('concat_c', [N('Concat',['x','x'],['y'],axis=1)], [1,128,56,56],[1,256,56,56])
model('add_bcast', [N('Add',['x','b'],['y'])], [1,64,112,112],[1,64,112,112],[c('b',rng.standard_normal((1,64,1,1)).astype(np.float32))])
model('mul_bcast', [N('Mul',['x','b'],['y'])], [1,64,112,112],[1,64,112,112],[c('b',rng.standard_normal((1,64,1,1)).astype(np.float32))])
model('batchnorm', [N('BatchNormalization',['x','g','b','m','v'],['y'])], [1,64,112,112],[1,64,112,112],[c('g',rng.random(64).astype(np.float32)),c('b',rng.random(64).astype(np.float32)),c('m',rng.random(64).astype(np.float32)),c('v',rng.random(64).astype(np.float32)+0.5)])
model('instnorm', [N('InstanceNormalization',['x','g','b'],['y'])], [1,64,128,128],[1,64,128,128],[c('g',rng.random(64).astype(np.float32)),c('b',rng.random(64).astype(np.float32))])
model('maxpool', [N('MaxPool',['x'],['y'],kernel_shape=[3,3],strides=[2,2],pads=[1,1,1,1])], [1,64,112,112],[1,64,56,56])
model('avgpool', [N('AveragePool',['x'],['y'],kernel_shape=[3,3],strides=[1,1],pads=[1,1,1,1])], [1,64,56,56],[1,64,56,56])
model('pad', [N('Pad',['x','p'],['y'])], [1,64,112,112],[1,64,114,114],[c('p',np.array([0,0,1,1,0,0,1,1],np.int64))])
model('slice', [N('Slice',['x','st','en','ax'],['y'])], [1,128,112,112],[1,64,112,112],[c('st',np.array([0],np.int64)),c('en',np.array([64],np.int64)),c('ax',np.array([1],np.int64))])
model('clip', [N('Clip',['x','lo','hi'],['y'])], [1,64,112,112],[1,64,112,112],[c('lo',np.float32(0)),c('hi',np.float32(6))])
model('leakyrelu', [N('LeakyRelu',['x'],['y'],alpha=0.1)], [1,64,112,112],[1,64,112,112])
model('hardswish', [N('HardSigmoid',['x'],['h'],alpha=1/6,beta=0.5),N('Mul',['x','h'],['y'])], [1,64,112,112],[1,64,112,112])
model('exp', [N('Exp',['x'],['y'])], [1,64,112,112],[1,64,112,112])
model('sqrt_abs', [N('Abs',['x'],['a']),N('Sqrt',['a'],['y'])], [1,64,112,112],[1,64,112,112])
model('convt', [N('ConvTranspose',['x','w','b'],['y'],kernel_shape=[4,4],strides=[2,2],pads=[1,1,1,1])], [1,64,56,56],[1,32,112,112],[c('w',(rng.standard_normal((64,32,4,4))*0.05).astype(np.float32)),c('b',np.zeros(32,np.float32))])
model('depth2space', [N('DepthToSpace',['x'],['y'],blocksize=2,mode='DCR')], [1,256,56,56],[1,64,112,112])
model('matmul_batched', [N('MatMul',['x','w'],['y'])], [8,128,64],[8,128,128],[c('w',rng.standard_normal((8,64,128)).astype(np.float32))])
model('matmul_2d', [N('MatMul',['x','w'],['y'])], [128,768],[128,3072],[c('w',(rng.standard_normal((768,3072))*0.03).astype(np.float32))])
model('gemm_1row', [N('Gemm',['x','w','b'],['y'],transB=1)], [1,2048],[1,1000],[c('w',(rng.standard_normal((1000,2048))*0.02).astype(np.float32)),c('b',np.zeros(1000,np.float32))])
model('reducemax', [N('ReduceMax',['x'],['y'],axes=[-1],keepdims=0)], [512,1000],[512])
model('argmax', [N('ArgMax',['x'],['y'],axis=-1,keepdims=0)], [512,1000],[512],outdtype=TensorProto.INT64)
model('conv_grouped', [N('Conv',['x','w','b'],['y'],group=8,kernel_shape=[3,3],pads=[1,1,1,1])], [1,256,28,28],[1,256,28,28],[c('w',(rng.standard_normal((256,32,3,3))*0.05).astype(np.float32)),c('b',np.zeros(256,np.float32))])
model('conv_5x5', [N('Conv',['x','w','b'],['y'],kernel_shape=[5,5],pads=[2,2,2,2])], [1,64,56,56],[1,64,56,56],[c('w',(rng.standard_normal((64,64,5,5))*0.02).astype(np.float32)),c('b',np.zeros(64,np.float32))])
model('conv_dw5x5', [N('Conv',['x','w','b'],['y'],group=96,kernel_shape=[5,5],pads=[2,2,2,2])], [1,96,56,56],[1,96,56,56],[c('w',(rng.standard_normal((96,1,5,5))*0.1).astype(np.float32)),c('b',np.zeros(96,np.float32))])
model('conv_7x7s2', [N('Conv',['x','w','b'],['y'],kernel_shape=[7,7],strides=[2,2],pads=[3,3,3,3])], [1,3,224,224],[1,64,112,112],[c('w',(rng.standard_normal((64,3,7,7))*0.05).astype(np.float32)),c('b',np.zeros(64,np.float32))])
model('upsample_concat', [N('Resize',['x','roi','sc'],['u'],mode='nearest'),N('Concat',['u','u'],['y'],axis=1)], [1,128,40,40],[1,256,80,80],[c('roi',np.array([],np.float32)),c('sc',np.array([1,1,2,2],np.float32))])
model('split', [N('Split',['x'],['a','y'],axis=1)], [1,128,56,56],[1,64,56,56])
model('reshape_transpose', [N('Reshape',['x','s'],['r']),N('Transpose',['r'],['t'],perm=[0,2,1,3,4]),N('Reshape',['t','s2'],['y'])], [1,116,28,28],[1,116,28,28],[c('s',np.array([1,2,58,28,28],np.int64)),c('s2',np.array([1,116,28,28],np.int64))])
model('pow2', [N('Pow',['x','two'],['y'])], [1,64,112,112],[1,64,112,112],[c('two',np.float32(2))])
model('reciprocal', [N('Reciprocal',['x'],['y'])], [1,64,112,112],[1,64,112,112])
model('where_mask', [N('Greater',['x','z'],['m']),N('Where',['m','x','z'],['y'])], [1,64,112,112],[1,64,112,112],[c('z',np.float32(0))])
out.close()
