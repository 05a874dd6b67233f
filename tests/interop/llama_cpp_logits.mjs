// Loads a GGUF file with llama.cpp (through node-llama-cpp, CPU only), evaluates the token ids of
// an `infergate logits --reference` JSON file and compares llama.cpp's logits with infergate's:
// the top-1 token must agree at every position and the largest absolute logit difference must
// be within the given tolerance. A top-1 difference is accepted only as a near tie, where both
// engines put the two tokens within half the tolerance of each other: logits allowed to
// differ by the tolerance can swap two tokens that close (quantized activations round
// differently in the two engines: llama.cpp per 256 values for its k-quants, infergate per 32),
// while a layout bug moves logits by more than 1.
//
//   node llama_cpp_logits.mjs MODEL.gguf EXPECTED.json TOLERANCE [LABEL]
//
// node-llama-cpp is resolved from $INFERGATE_NODE_MODULES (a folder holding node_modules/, as
// ci/interop-llama-cpp.sh installs it) or else the usual way. Exit status: 0 all agree,
// 1 mismatch, 2 usage or load error.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import {getCpuLlama} from "./node_llama_cpp.mjs";

function usage(message) {
  console.error(`llama_cpp_logits: ${message}`);
  console.error("usage: node llama_cpp_logits.mjs MODEL.gguf EXPECTED.json TOLERANCE [LABEL]");
  process.exit(2);
}

function argmax(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

const [modelPath, expectedPath, toleranceArg, labelArg] = process.argv.slice(2);
if (!modelPath || !expectedPath || toleranceArg === undefined) usage("missing arguments");
const tolerance = Number(toleranceArg);
if (!Number.isFinite(tolerance) || tolerance < 0) usage(`bad tolerance '${toleranceArg}'`);
const label = labelArg ?? path.basename(modelPath);

let expected;
try {
  expected = JSON.parse(fs.readFileSync(expectedPath, "utf8"));
} catch (e) {
  usage(`cannot read ${expectedPath}: ${e.message}`);
}
const {vocab_size: vocab, tokens, logits: want} = expected;
if (!Number.isInteger(vocab) || !Array.isArray(tokens) || tokens.length === 0 ||
    !Array.isArray(want) || want.length !== tokens.length ||
    want.some((row) => !Array.isArray(row) || row.length !== vocab)) {
  usage(`${expectedPath}: not the output of 'infergate logits' (vocab_size, tokens, logits)`);
}

let got;  // got[p][v]: llama.cpp's logits after tokens[0..p]
try {
  const llama = await getCpuLlama();
  const model = await llama.loadModel({modelPath, gpuLayers: 0});
  const context = await model.createContext({
    contextSize: Math.max(64, tokens.length),
    batchSize: tokens.length,
    sequences: 1,
    flashAttention: false,
    // One thread per available core: more (node-llama-cpp's default can exceed a container's CPU
    // quota) makes llama.cpp's spinning threads many times slower.
    threads: os.availableParallelism(),
    // An fp32 KV cache, as infergate's reference, so f32 models compare tightly.
    experimentalKvCacheKeyType: "F32",
    experimentalKvCacheValueType: "F32",
  });
  const sequence = context.getSequence();
  const results = await sequence.controlledEvaluate(
      tokens.map((t) => [t, {generateNext: {logits: true}}]));
  got = results.map((r, p) => {
    const map = r?.next?.logits;
    if (!map) throw new Error(`no logits returned for position ${p}`);
    if (map.size !== vocab) {
      throw new Error(`llama.cpp has ${map.size} logits per position, infergate ${vocab}`);
    }
    const row = new Float64Array(vocab);
    for (const [token, value] of map) row[token] = value;
    return row;
  });
  await context.dispose();
  await model.dispose();
  await llama.dispose();
} catch (e) {
  console.error(`FAIL ${label}: llama.cpp could not evaluate ${modelPath}: ${e.stack ?? e}`);
  process.exit(2);
}

let maxDiff = 0, maxDiffAt = "", maxAbs = 0;
const top1Mismatches = [], nearTies = [];
const tieMargin = tolerance / 2;
for (let p = 0; p < tokens.length; p++) {
  for (let v = 0; v < vocab; v++) {
    const d = Math.abs(got[p][v] - want[p][v]);
    if (!(d <= maxDiff)) {  // also catches NaN
      maxDiff = d;
      maxDiffAt = `position ${p}, token ${v}`;
    }
    maxAbs = Math.max(maxAbs, Math.abs(want[p][v]));
  }
  const a = argmax(got[p]), b = argmax(want[p]);
  if (a !== b) {
    const gapLlama = got[p][a] - got[p][b], gapOurs = want[p][b] - want[p][a];
    const text = `position ${p}: llama.cpp ${a} (${got[p][a].toFixed(4)}, ${b} ` +
                 `${got[p][b].toFixed(4)}), infergate ${b} (${want[p][b].toFixed(4)}, ${a} ` +
                 `${want[p][a].toFixed(4)})`;
    (gapLlama <= tieMargin && gapOurs <= tieMargin ? nearTies : top1Mismatches).push(text);
  }
}
const ok = top1Mismatches.length === 0 && maxDiff <= tolerance;
console.log(`${ok ? "PASS" : "FAIL"} ${label}: ${tokens.length} positions x ${vocab} logits, ` +
            `top-1 agrees at ${tokens.length - top1Mismatches.length - nearTies.length}/` +
            `${tokens.length}${nearTies.length ? ` (+${nearTies.length} near ties)` : ""}, ` +
            `max |llama.cpp - infergate| = ${maxDiff.toExponential(3)} at ${maxDiffAt} ` +
            `(tolerance ${tolerance}, max |logit| ${maxAbs.toFixed(3)})`);
for (const m of top1Mismatches) console.log(`  top-1 differs at ${m}`);
for (const t of nearTies) console.log(`  near tie (within ${tieMargin}) at ${t}`);
process.exit(ok ? 0 : 1);
