// Greedy decoding against llama.cpp (node-llama-cpp, CPU only): for each GGUF file, llama.cpp
// decodes 64 tokens greedily after each of three prompts; `infergate logits --top 8` then
// reads the same file and computes its logits teacher-forced on llama.cpp's tokens. Per file:
//   - greedy: infergate's top-1 equals llama.cpp's token at every step, or the first step where
//     it does not is a near tie: each engine puts the two tokens within TIE of each other
//     (activations are rounded to int8 differently in the two engines, so logits that close
//     may swap; a wrong dequantization or kernel moves them by far more);
//   - teacher-forced: infergate's top-1 agrees with llama.cpp's token, or the two are a near tie,
//     at >= 99% of the steps. (Random weights put the top two of 32,000 logits close: llama.cpp
//     rounds activations per 256 values for its k-quants, infergate per 32, which swaps a few
//     percent of such steps either way; exact agreement is reported beside.)
//
//   node llama_cpp_greedy.mjs INFERGATE TIE LABEL=MODEL.gguf [LABEL=MODEL.gguf ...]
//   (a label starting with "control:" must fail: its file is compared with another model's
//   logits, given as control:LABEL=MODEL.gguf=OTHER.gguf)
//
// node-llama-cpp is resolved from $INFERGATE_NODE_MODULES (ci/node-llama-cpp.sh). Exit status:
// 0 all agree (and every control fails), 1 a mismatch, 2 usage or load error.
import {execFileSync} from "node:child_process";

import {getCpuLlama} from "./node_llama_cpp.mjs";

const kSteps = 64;
const kMinAgreement = 0.99;
// BOS, then ids spread over tiny's 32,000-token vocabulary.
const kPrompts = [
  [1, 42, 300, 7],
  [1, 5000, 12, 9, 31000, 77, 256, 4096],
  [1, 15, 27000, 3, 812, 1999, 64, 7777, 123, 30500, 2, 9000, 11, 400, 18000, 5],
];

function usage(message) {
  console.error(`llama_cpp_greedy: ${message}`);
  console.error("usage: node llama_cpp_greedy.mjs INFERGATE TIE LABEL=MODEL.gguf ...");
  process.exit(2);
}

// llama.cpp's kTop largest logits (node-llama-cpp filters them in native code) as
// [[id, logit], ...], largest first.
const kTop = 8;
const kNext = {generateNext: {logits: {filter: {tokens: [], includeTop: kTop}}}};
function topK(map) {
  return [...map].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, kTop);
}

// llama.cpp's greedy continuation of each prompt, with its top two logits at every step.
async function llamaGreedy(llama, modelPath) {
  const model = await llama.loadModel({modelPath, gpuLayers: 0});
  const context = await model.createContext({
    contextSize: 128, batchSize: 32, sequences: 1, flashAttention: false,
    // One thread: spinning threads slow to a crawl beside another test on a 2-core machine.
    threads: 1,
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
  });
  const runs = [];
  for (const prompt of kPrompts) {
    const sequence = context.getSequence();
    const tokens = [], tops = [];
    let input = prompt.map((t, i) => (i + 1 < prompt.length ? t : [t, kNext]));
    for (let step = 0; step < kSteps; step++) {
      const results = await sequence.controlledEvaluate(input);
      const top = topK(results[results.length - 1].next.logits);
      tokens.push(top[0][0]);
      tops.push(top);
      input = [[top[0][0], kNext]];
    }
    await sequence.dispose();
    runs.push({prompt, tokens, tops});
  }
  await context.dispose();
  await model.dispose();
  return runs;
}

// infergate's kTop largest logits teacher-forced on the prompt and llama.cpp's first 63 tokens.
function infergateTops(infergate, modelPath, run) {
  const ids = [...run.prompt, ...run.tokens.slice(0, kSteps - 1)];
  const out = execFileSync(infergate, ["logits", "--model", modelPath, "--tokens", ids.join(","),
                                       "--top", String(kTop)], {maxBuffer: 1 << 26, stdio: ["ignore", "pipe", "pipe"]});
  return JSON.parse(out).top.slice(run.prompt.length - 1);
}

let widestTie = 0;  // the largest gap of any near tie, reported at the end

// A step where the engines' top-1 differ: a near tie when each puts the other's token within
// `tie` of its own.
function describe(run, ours, r, s, tie) {
  const want = run.tokens[s], got = ours[s][0][0];
  // How far below its own top-1 each engine puts the other's (Infinity: not in its top kTop).
  const gap = (top, id) => {
    const other = top.find((pair) => pair[0] === id);
    return other ? top[0][1] - other[1] : Infinity;
  };
  const llamaGap = gap(run.tops[s], got), oursGap = gap(ours[s], want);
  const nearTie = llamaGap <= tie && oursGap <= tie;
  if (nearTie) widestTie = Math.max(widestTie, llamaGap, oursGap);
  return {
    nearTie,
    text: `prompt ${r} step ${s}: llama.cpp ${want} (gap ${llamaGap.toFixed(4)} to ${got}), ` +
          `infergate ${got} (gap ${oursGap.toFixed(4)} to ${want})`,
  };
}

function judge(runs, oursPerRun, tie) {
  let agree = 0, tied = 0, total = 0;
  const problems = [], firstTies = [];
  runs.forEach((run, r) => {
    const ours = oursPerRun[r];
    let diverged = false;
    for (let s = 0; s < kSteps; s++) {
      total++;
      if (ours[s][0][0] === run.tokens[s]) {
        agree++;
        continue;
      }
      const d = describe(run, ours, r, s, tie);
      if (d.nearTie) tied++;
      if (diverged) continue;  // greedy: only the first difference decides
      diverged = true;
      (d.nearTie ? firstTies : problems).push(d.text);
    }
  });
  if (agree + tied < kMinAgreement * total) {
    problems.push(`teacher-forced top-1 agrees at ${agree}/${total} (+${tied} near ties), under ` +
                  `${kMinAgreement * 100}%`);
  }
  return {ok: problems.length === 0, agree, tied, total, problems, ties: firstTies};
}

const [infergate, tieArg, ...specs] = process.argv.slice(2);
if (!infergate || tieArg === undefined || specs.length === 0) usage("missing arguments");
const tie = Number(tieArg);
if (!Number.isFinite(tie) || tie < 0) usage(`bad tie margin '${tieArg}'`);

let failed = false;
try {
  const llama = await getCpuLlama();
  for (const spec of specs) {
    const [label, modelPath, oursPath = modelPath] = spec.split("=");
    if (!label || !modelPath) usage(`bad model '${spec}' (LABEL=MODEL.gguf)`);
    const control = label.startsWith("control:");
    const runs = await llamaGreedy(llama, modelPath);
    const verdict = judge(runs, runs.map((run) => infergateTops(infergate, oursPath, run)), tie);
    const summary = `${label}: greedy ${kPrompts.length} x ${kSteps} tokens` +
                    (verdict.ties.length ? ` (parting at ${verdict.ties.length} near tie(s))` : "") +
                    `, teacher-forced top-1 agrees at ${verdict.agree}/${verdict.total}` +
                    (verdict.tied ? ` (+${verdict.tied} near ties)` : "");
    if (control) {
      console.log(`${verdict.ok ? "FAIL" : "PASS"} ${summary} (a control: must disagree)`);
      failed ||= verdict.ok;
      continue;
    }
    console.log(`${verdict.ok ? "PASS" : "FAIL"} ${summary}`);
    for (const t of verdict.ties) console.log(`  near tie (within ${tie}) at ${t}`);
    for (const p of verdict.problems) console.log(`  ${p}`);
    failed ||= !verdict.ok;
  }
  await llama.dispose();
  console.log(`widest near tie: ${widestTie.toFixed(4)} (margin ${tie})`);
} catch (e) {
  console.error(`llama_cpp_greedy: ${e.stack ?? e}`);
  process.exit(2);
}
process.exit(failed ? 1 : 0);
