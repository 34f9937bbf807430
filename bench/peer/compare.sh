#!/bin/bash
# nnrt's cpu plugin against ONNX Runtime, 3 alternating rounds (ONNX Runtime, then nnrt, model by
# model), 2 threads, medians; prints one line per model and round. Expects the models in /tmp/peer
# (../shared/peer/gen_pair.py and inputs.py, bench/peer/quant_pair.py with and without --unsigned)
# and onnxruntime-node in /tmp/ortnode with ort_run.js and ort_run_q8.js (../shared/peer/README.md); resnet18 (from
# bench/peer/resnet_pair.py), resnet50 (bench/peer/resnet50_pair.py), mobilenetv2 (bench/peer/mobilenetv2_pair.py), encoder (bench/peer/encoder_pair.py), lstm, gru
# grulbr, bilstm and bigru (bench/peer/lstm_pair.py), and the probes none of the kernels were tuned on (squeezenet, efficientnet, yolo,
# unet, densenet, vit, resnext, shufflenet, inception, yolov5, mobilenetv3, convnext: bench/peer/<name>_pair.py; the small models tinymlp, kws, dscnn,
# cifar, tinytf and autoenc: bench/peer/small_pair.py, 1000 runs each) run from the same .onnx file in both, through nnrt's ONNX front end.
# Run from the repository root after building: bash bench/peer/compare.sh
set -euo pipefail
for r in 1 2 3; do
  for m in "mlp 16,1024 f32" "cnn 1,64,56,56 f32" "mobilenet 1,3,224,224 f32" "resnet18 1,3,224,224 onnx" "resnet50 1,3,224,224 onnx" "mobilenetv2 1,3,224,224 onnx" "mobilenetv3 1,3,224,224 onnx" "convnext 1,3,224,224 onnx" "squeezenet 1,3,224,224 onnx" "efficientnet 1,3,224,224 onnx" "yolo 1,3,320,320 onnx" "yolov5 1,3,320,320 onnx" "unet 1,3,256,256 onnx" "densenet 1,3,224,224 onnx" "vit 1,3,224,224 onnx" "resnext 1,3,224,224 onnx" "shufflenet 1,3,224,224 onnx" "inception 1,3,224,224 onnx" "encoder 1,128,256 onnx" "lstm 64,1,256 onnx" "gru 64,1,256 onnx" "grulbr 64,1,256 onnx" "bilstm 64,1,256 onnx" "bigru 64,1,256 onnx" "tinymlp 1,784 onnx" "kws 1,40,100 onnx" "dscnn 1,40,100 onnx" "cifar 1,3,32,32 onnx" "tinytf 1,16,64 onnx" "autoenc 1,1,64,64 onnx" "qmobilenet_u8 1,3,224,224 q8" "qmobilenet 1,3,224,224 q8"; do
    set -- $m
    runs=100
    case $1 in convnext) runs=30 ;; esac
    case $1 in tinymlp|kws|dscnn|cifar|tinytf|autoenc) runs=1000 ;; esac
    if [ $3 = onnx ]; then
      o=$(node /tmp/ortnode/ort_run.js /tmp/peer/$1.onnx /tmp/peer/$1.f32 $2 $runs 2 | sed 's/.*median \([0-9.]*\) us.*/\1/')
      n=$(build/bin/nnrt run /tmp/peer/$1.onnx --device cpu --input x=/tmp/peer/$1.f32 --repeat $runs 2>&1 | grep timing | sed 's/.*wall \([0-9.]*\) \([mu]s\).*/\1 \2/')
    elif [ $3 = f32 ]; then
      o=$(node /tmp/ortnode/ort_run.js /tmp/peer/$1.onnx /tmp/peer/$1.onnx.f32 $2 100 2 | sed 's/.*median \([0-9.]*\) us.*/\1/')
      n=$(build/bin/nnrt run /tmp/peer/$1.yaml --device cpu --input x=/tmp/peer/$1.nnrt.f32 --repeat 100 2>&1 | grep timing | sed 's/.*wall \([0-9.]*\) \([mu]s\).*/\1 \2/')
    else
      reps=100; [ $1 = qmobilenet ] && reps=20
      o=$(node /tmp/ortnode/ort_run_q8.js /tmp/peer/$1.onnx /tmp/peer/$1.nchw.q8 $2 $reps 2 | sed 's/.*median \([0-9.]*\) us.*/\1/')
      n=$(build/bin/nnrt run /tmp/peer/$1.yaml --device cpu --input x=/tmp/peer/$1.nhwc.q8 --repeat 100 2>&1 | grep timing | sed 's/.*wall \([0-9.]*\) \([mu]s\).*/\1 \2/')
    fi
    echo "round $r $1 ort_us $o nnrt $n"
  done
done
