// ONNX Runtime CPU EP on bert_pair.py's model: node ort_run_bert.js MODEL.onnx IDS.i64 MASK.i64 ITERS THREADS [OUT_PREFIX]
// Prints the median and mean microseconds per run after 10 warm-up runs; writes OUT_PREFIX.hidden.f32 and
// OUT_PREFIX.pooled.f32 if asked. Run from a folder where onnxruntime-node is installed (../shared/peer/README.md).
const ort = require('onnxruntime-node');
const fs = require('fs');
(async () => {
  const [model, idsFile, maskFile, itersText, threadsText, outPrefix] = process.argv.slice(2);
  const iters = +itersText || 50;
  const s = await ort.InferenceSession.create(model, {intraOpNumThreads: +threadsText || 2, interOpNumThreads: 1,
    executionProviders: ['cpu'], graphOptimizationLevel: 'all'});
  const load = (file) => {
    const buf = fs.readFileSync(file);
    const v = new BigInt64Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    return new ort.Tensor('int64', v, [1, v.length]);
  };
  const feeds = {input_ids: load(idsFile), attention_mask: load(maskFile)};
  let out;
  for (let i = 0; i < 10; i++) out = await s.run(feeds);
  const t = [];
  for (let i = 0; i < iters; i++) { const a = process.hrtime.bigint(); await s.run(feeds); t.push(Number(process.hrtime.bigint() - a) / 1e3); }
  t.sort((a, b) => a - b);
  const mean = t.reduce((a, b) => a + b, 0) / t.length;
  console.log(`ort ${model.split('/').pop()}: median ${t[t.length >> 1].toFixed(1)} us, mean ${mean.toFixed(1)} us, min ${t[0].toFixed(1)} us (${iters} runs, ${threadsText || 2} threads)`);
  if (outPrefix) {
    for (const [name, suffix] of [['last_hidden_state', 'hidden'], ['pooled', 'pooled']]) {
      const o = out[name].data;
      fs.writeFileSync(`${outPrefix}.${suffix}.f32`, Buffer.from(o.buffer, o.byteOffset, o.byteLength));
    }
  }
})();
