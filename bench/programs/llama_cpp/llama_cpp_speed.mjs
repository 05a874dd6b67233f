// Measures llama.cpp (the prebuilt CPU library in the node-llama-cpp npm package) on a GGUF file
// the way bench/programs/llama_cpp/engine_speed.cc measures infergate's engine, and prints one JSON
// object: prefill of one prompt to its first token, and greedy decode of S concurrent streams
// (the streams' tokens go to llama.cpp in one batch per step). Each figure is the best of --reps.
//
//   node llama_cpp_speed.mjs MODEL.gguf [--threads T] [--prefill N] [--prompt P] [--decode D]
//                            [--streams 1,8,32] [--reps R]
//
// node-llama-cpp is resolved from $INFERGATE_NODE_MODULES (as ci/node-llama-cpp.sh installs it).
// Exit status: 0 measured, 2 usage or load error.
import os from "node:os";
import path from "node:path";
import {createRequire} from "node:module";
import {pathToFileURL} from "node:url";

function usage(message) {
  console.error(`llama_cpp_speed: ${message}`);
  console.error("usage: node llama_cpp_speed.mjs MODEL.gguf [--threads T] [--prefill N] " +
                "[--prompt P] [--decode D] [--streams 1,8,32] [--reps R]");
  process.exit(2);
}

function parseArgs(argv) {
  const options = {threads: os.availableParallelism(), prefill: 512, prompt: 128, decode: 64,
                   streams: [1, 8, 32], reps: 3};
  const positional = [];
  for (let i = 0; i < argv.length; i++) {
    const name = argv[i].startsWith("--") ? argv[i].slice(2) : null;
    if (name === null) {
      positional.push(argv[i]);
      continue;
    }
    if (!(name in options)) usage(`unknown option --${name}`);
    const value = argv[++i];
    if (value === undefined) usage(`--${name} needs a value`);
    if (name === "streams") {
      options.streams = value.split(",").map(Number);
      if (options.streams.some((s) => !Number.isInteger(s) || s < 1 || s > 256)) {
        usage(`--streams: '${value}' is not a list of integers in 1..256`);
      }
    } else {
      options[name] = Number(value);
      if (!Number.isInteger(options[name]) || options[name] < 1 || options[name] > 1 << 16) {
        usage(`--${name}: '${value}' is not an integer in 1..65536`);
      }
    }
  }
  if (positional.length !== 1) usage("expected exactly one MODEL.gguf");
  options.model = positional[0];
  return options;
}

async function importNodeLlamaCpp() {
  const root = process.env.INFERGATE_NODE_MODULES;
  if (!root) return import("node-llama-cpp");
  const resolved = createRequire(path.join(path.resolve(root), "package.json"))
      .resolve("node-llama-cpp");
  return import(pathToFileURL(resolved).href);
}

// The same token ids engine_speed.cc uses: distinct per stream, never a shared prefix.
function promptTokens(length, salt) {
  const tokens = [];
  for (let i = 0; i < length; i++) tokens.push(3 + (i * 131 + salt * 977) % 31000);
  return tokens;
}

const now = () => Number(process.hrtime.bigint()) / 1e9;

async function createContext(model, options, sequences, tokensPerSequence) {
  return model.createContext({
    contextSize: sequences * tokensPerSequence,
    batchSize: Math.max(options.prefill, sequences),
    sequences,
    threads: options.threads,
    flashAttention: false,
  });
}

// Seconds from handing over an N-token prompt to its first generated token.
async function prefillSeconds(model, options) {
  let best = Infinity;
  const context = await createContext(model, options, 1, options.prefill + 16);
  const sequence = context.getSequence();
  for (let rep = 0; rep < options.reps; rep++) {
    await sequence.clearHistory();
    const t0 = now();
    const generator = sequence.evaluate(promptTokens(options.prefill, 100 + rep), {temperature: 0});
    await generator.next();
    best = Math.min(best, now() - t0);
    await generator.return();
  }
  await context.dispose();
  return best;
}

// Decode tokens per second of `streams` sequences: timed from the moment every stream has its
// first token (prefill done) until each has generated options.decode more.
async function decodeTokensPerSecond(model, options, streams) {
  let best = 0;
  const context = await createContext(model, options, streams, options.prompt + options.decode + 16);
  const sequences = Array.from({length: streams}, () => context.getSequence());
  for (let rep = 0; rep < options.reps; rep++) {
    await Promise.all(sequences.map((s) => s.clearHistory()));
    const generators = sequences.map(
        (s, i) => s.evaluate(promptTokens(options.prompt, i + 1000 * rep), {temperature: 0}));
    await Promise.all(generators.map((g) => g.next()));  // every stream's first token
    const t0 = now();
    await Promise.all(generators.map(async (g) => {
      for (let n = 0; n < options.decode; n++) await g.next();
    }));
    best = Math.max(best, streams * options.decode / (now() - t0));
    await Promise.all(generators.map((g) => g.return()));
  }
  await context.dispose();
  return best;
}

const options = parseArgs(process.argv.slice(2));
try {
  const {getLlama, LlamaLogLevel} = await importNodeLlamaCpp();
  // build: "never" and skipDownload: only the prebuilt binaries shipped in the npm package.
  const llama = await getLlama({gpu: false, build: "never", skipDownload: true,
                                logLevel: LlamaLogLevel.error});
  const model = await llama.loadModel({modelPath: options.model, gpuLayers: 0});
  const result = {
    engine: "llama.cpp",
    release: llama.llamaCppRelease.release,
    system_info: llama.systemInfo,  // the CPU features of the variant llama.cpp loaded
    threads: options.threads,
    prefill_tokens: options.prefill,
    prefill_tok_s: options.prefill / await prefillSeconds(model, options),
    decode: [],
  };
  for (const streams of options.streams) {
    result.decode.push({streams, tok_s: await decodeTokensPerSecond(model, options, streams)});
  }
  console.log(JSON.stringify(result));
  await model.dispose();
  await llama.dispose();
} catch (e) {
  console.error(`llama_cpp_speed: ${options.model}: ${e.message}`);
  process.exit(2);
}
