// ONNX Runtime CPU EP on a model with one 8-bit input and output (the quantized peer models):
//   node ort_run_q8.js MODEL.onnx INPUT.q8 d0,d1,.. ITERS THREADS [OUT.q8]   (int8, or uint8 for *_u8.onnx)
// Prints the median, mean and minimum microseconds per run after 10 warm-up runs, as ort_run.js does
// for float32 models; writes the output tensor (raw bytes) if asked. Run it from a folder where
// onnxruntime-node is installed (see ../shared/peer/README.md).
const ort = require('onnxruntime-node');
const fs = require('fs');
(async () => {
  const [model, inFile, dimsText, itersText, threadsText, outFile] = process.argv.slice(2);
  const dims = dimsText.split(',').map(Number), iters = +itersText || 50;
  const s = await ort.InferenceSession.create(model, {intraOpNumThreads: +threadsText || 2, interOpNumThreads: 1,
    executionProviders: ['cpu'], graphOptimizationLevel: 'all'});
  const buf = fs.readFileSync(inFile);
  const u8 = model.includes('_u8');
  const x = new ort.Tensor(u8 ? 'uint8' : 'int8', u8 ? new Uint8Array(buf.buffer, buf.byteOffset, buf.length)
                                               : new Int8Array(buf.buffer, buf.byteOffset, buf.length), dims);
  const feeds = {[s.inputNames[0]]: x};
  let out;
  for (let i = 0; i < 10; i++) out = await s.run(feeds);
  const t = [];
  for (let i = 0; i < iters; i++) { const a = process.hrtime.bigint(); await s.run(feeds); t.push(Number(process.hrtime.bigint() - a) / 1e3); }
  t.sort((a, b) => a - b);
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  console.log(`ort ${model.split('/').pop()}: median ${t[t.length >> 1].toFixed(1)} us, mean ${mean.toFixed(1)} us, min ${t[0].toFixed(1)} us (${iters} runs, ${threadsText || 2} threads)`);
  if (outFile) { const o = out[s.outputNames[0]].data; fs.writeFileSync(outFile, Buffer.from(o.buffer, o.byteOffset, o.byteLength)); }
})();
