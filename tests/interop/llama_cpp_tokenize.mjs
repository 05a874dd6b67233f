// Compares infergate's tokenizers with llama.cpp's (through node-llama-cpp, CPU only): runs
// write_tokenizer_fixtures (tests/interop/write_tokenizer_fixtures.cc), which writes a llama
// (SentencePiece) and a gpt2 (byte-level BPE) GGUF vocabulary and our encodings of a list of
// strings, then tokenizes the same strings with llama.cpp (model.tokenize, no BOS) and
// detokenizes our ids with it.
//
//   node llama_cpp_tokenize.mjs PATH/TO/write_tokenizer_fixtures
//
// node-llama-cpp is resolved from $INFERGATE_NODE_MODULES, else from the cache
// ci/interop-llama-cpp.sh installs (~/.cache/infergate/node-llama-cpp), else the usual way; it
// is never installed here. Exit status: 0 all agree, 1 a mismatch, 2 usage or fixture error,
// 77 skipped (node-llama-cpp not installed).
import {spawnSync} from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {createRequire} from "node:module";
import {pathToFileURL} from "node:url";

function fail(message) {
  console.error(`llama_cpp_tokenize: ${message}`);
  process.exit(2);
}

async function importNodeLlamaCpp() {
  const roots = [process.env.INFERGATE_NODE_MODULES,
                 path.join(os.homedir(), ".cache", "infergate", "node-llama-cpp")];
  for (const root of roots.filter(Boolean)) {
    try {
      const resolved = createRequire(path.join(path.resolve(root), "package.json"))
          .resolve("node-llama-cpp");
      return await import(pathToFileURL(resolved).href);
    } catch {
      // try the next place
    }
  }
  return import("node-llama-cpp");
}

const [writeFixtures] = process.argv.slice(2);
if (!writeFixtures) fail("usage: node llama_cpp_tokenize.mjs PATH/TO/write_tokenizer_fixtures");

let nodeLlamaCpp;
try {
  nodeLlamaCpp = await importNodeLlamaCpp();
} catch (e) {
  console.log(`SKIP: node-llama-cpp is not installed (run ci/interop-llama-cpp.sh once): ` +
              `${e.message}`);
  process.exit(77);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "infergate-tokenize-"));
let status = 0;
try {
  const run = spawnSync(writeFixtures, [work], {encoding: "utf8"});
  if (run.status !== 0) fail(`${writeFixtures} failed:\n${run.stdout}${run.stderr}`);
  const {models} = JSON.parse(fs.readFileSync(path.join(work, "cases.json"), "utf8"));

  const {getLlama, LlamaLogLevel} = nodeLlamaCpp;
  const llama = await getLlama({gpu: false, build: "never", skipDownload: true,
                                logLevel: LlamaLogLevel.error});
  for (const {name, gguf, cases} of models) {
    const model = await llama.loadModel({modelPath: gguf, gpuLayers: 0, vocabOnly: true});
    let agree = 0;
    for (const {text, ids, decoded} of cases) {
      const theirs = Array.from(model.tokenize(text, false));
      const theirText = model.detokenize(ids);
      const same = theirs.length === ids.length && theirs.every((t, i) => t === ids[i]);
      if (same && theirText === decoded) {
        ++agree;
        continue;
      }
      status = 1;
      console.log(`FAIL ${name} ${JSON.stringify(text)}:`);
      if (!same) console.log(`  llama.cpp [${theirs}]\n  infergate [${ids}]`);
      if (theirText !== decoded) {
        console.log(`  decode: llama.cpp ${JSON.stringify(theirText)}, ` +
                    `infergate ${JSON.stringify(decoded)}`);
      }
    }
    console.log(`${agree === cases.length ? "PASS" : "FAIL"} ${name}: ${agree}/${cases.length} ` +
                `strings encode and decode as in llama.cpp`);
    await model.dispose();
  }
  await llama.dispose();
} finally {
  fs.rmSync(work, {recursive: true, force: true});
}
process.exit(status);
