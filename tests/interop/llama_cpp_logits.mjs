// Loads GGUF files with llama.cpp (through node-llama-cpp, CPU only), evaluates the token ids of
// each one's `infergate logits` JSON file and compares llama.cpp's logits with infergate's: the
// top-1 token must agree at every position and the largest absolute logit difference must be
// within the given tolerance. A top-1 difference is accepted only as a near tie, where both
// engines put the two tokens within half the tolerance of each other: logits allowed to differ
// by the tolerance can swap two tokens that close (quantized activations round differently in
// the two engines: llama.cpp per 256 values for its k-quants, infergate per 32), while a layout
// bug moves logits by more than 1. One process checks every file (Node.js and llama.cpp start
// once); a label starting with "control:" is a negative control that must fail.
//
//   node llama_cpp_logits.mjs MODEL.gguf EXPECTED.json TOLERANCE LABEL [MODEL EXPECTED TOL LABEL]...
//
// node-llama-cpp is resolved from $INFERGATE_NODE_MODULES (a folder holding node_modules/, as
// ci/interop-llama-cpp.sh installs it) or else the usual way. Exit status: 0 all agree (and
// every control fails), 1 a mismatch, 2 usage or load error.
import fs from "node:fs";
import os from "node:os";

import {getCpuLlama} from "./node_llama_cpp.mjs";

function usage(message) {
  console.error(`llama_cpp_logits: ${message}`);
  console.error("usage: node llama_cpp_logits.mjs MODEL.gguf EXPECTED.json TOLERANCE LABEL ...");
  process.exit(2);
}

function argmax(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

function readExpected(expectedPath) {
  let expected;
  try {
    expected = JSON.parse(fs.readFileSync(expectedPath, "utf8"));
  } catch (e) {
    usage(`cannot read ${expectedPath}: ${e.message}`);
  }
  const {vocab_size: vocab, tokens, logits} = expected;
  if (!Number.isInteger(vocab) || !Array.isArray(tokens) || tokens.length === 0 ||
      !Array.isArray(logits) || logits.length !== tokens.length ||
      logits.some((row) => !Array.isArray(row) || row.length !== vocab)) {
    usage(`${expectedPath}: not the output of 'infergate logits' (vocab_size, tokens, logits)`);
  }
  return {vocab, tokens, want: logits};
}

// got[p][v]: llama.cpp's logits after tokens[0..p].
async function llamaLogits(llama, modelPath, tokens, vocab) {
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
  const results = await context.getSequence().controlledEvaluate(
      tokens.map((t) => [t, {generateNext: {logits: true}}]));
  const got = results.map((r, p) => {
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
  return got;
}

// Prints the verdict of one file (quiet: without the positions that differ); true when it
// agrees.
function compare(label, got, {vocab, tokens, want}, tolerance, quiet) {
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
  if (quiet) return ok;
  for (const m of top1Mismatches) console.log(`  top-1 differs at ${m}`);
  for (const t of nearTies) console.log(`  near tie (within ${tieMargin}) at ${t}`);
  return ok;
}

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 4 !== 0) usage("arguments come in fours");
const cases = [];
for (let i = 0; i < args.length; i += 4) {
  const [modelPath, expectedPath, toleranceArg, label] = args.slice(i, i + 4);
  const tolerance = Number(toleranceArg);
  if (!Number.isFinite(tolerance) || tolerance < 0) usage(`bad tolerance '${toleranceArg}'`);
  cases.push({modelPath, expected: readExpected(expectedPath), tolerance, label});
}

let failed = false;
const llama = await getCpuLlama();
for (const {modelPath, expected, tolerance, label} of cases) {
  let got;
  try {
    got = await llamaLogits(llama, modelPath, expected.tokens, expected.vocab);
  } catch (e) {
    console.error(`FAIL ${label}: llama.cpp could not evaluate ${modelPath}: ${e.stack ?? e}`);
    process.exit(2);
  }
  const control = label.startsWith("control:");
  const ok = compare(label, got, expected, tolerance, control);
  if (control) {
    console.log(`  ${ok ? "FAIL: a control must disagree" : "ok: the control disagrees, as it must"}`);
    failed ||= ok;
  } else {
    failed ||= !ok;
  }
}
await llama.dispose();
process.exit(failed ? 1 : 0);
