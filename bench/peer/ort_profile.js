// ONNX Runtime's own per-operator times on one float32 model: node ort_profile.js MODEL.onnx INPUT.f32 d0,d1,.. ITERS THREADS
// Runs the model ITERS times after 10 warm-up runs with ONNX Runtime's profiler on, then prints one line per node
// (name, operator, median microseconds of its kernel over the timed runs) and their sum. The counterpart of the
// per-operation lines nnrt's cpu device writes with the option `profile` (docs/cpu-performance.md). Run from a
// folder where onnxruntime-node is installed (../shared/peer/README.md); the profile file goes to /tmp.
const ort = require('onnxruntime-node');
const fs = require('fs');
(async () => {
  const [model, inFile, dimsText, itersText, threadsText] = process.argv.slice(2);
  const dims = dimsText.split(',').map(Number), iters = +itersText || 100;
  const s = await ort.InferenceSession.create(model, {intraOpNumThreads: +threadsText || 2, interOpNumThreads: 1,
    executionProviders: ['cpu'], graphOptimizationLevel: 'all', enableProfiling: true, profileFilePrefix: '/tmp/ort_profile'});
  const buf = fs.readFileSync(inFile);
  const x = new ort.Tensor('float32', new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4), dims);
  const feeds = {[s.inputNames[0]]: x};
  for (let i = 0; i < 10 + iters; i++) await s.run(feeds);
  await s.endProfiling();
  // onnxruntime-node does not return the file's name: the newest /tmp/ort_profile*.json is it.
  const file = fs.readdirSync('/tmp').filter((f) => f.startsWith('ort_profile') && f.endsWith('.json'))
    .map((f) => '/tmp/' + f).sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)[0];
  const events = JSON.parse(fs.readFileSync(file, 'utf8'));
  const times = new Map(), ops = new Map();
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const node = e.name.slice(0, -'_kernel_time'.length);
    if (!times.has(node)) times.set(node, []);
    times.get(node).push(e.dur);
    ops.set(node, e.args.op_name);
  }
  let total = 0;
  for (const [node, t] of times) {
    const last = t.slice(-iters).sort((a, b) => a - b);
    const median = last[last.length >> 1];
    total += median;
    console.log(`${node.padEnd(32)} ${ops.get(node).padEnd(20)} ${median.toFixed(1)} us`);
  }
  console.log(`sum of the medians: ${total.toFixed(1)} us (${times.size} nodes, ${iters} runs, profile ${file})`);
  fs.unlinkSync(file);
})();
