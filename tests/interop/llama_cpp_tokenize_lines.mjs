// llama.cpp's tokenizer (through node-llama-cpp, CPU only, the vocabulary alone) on every line of
// a text file, as JSON lines {"ids", "decoded"} like hf_tokenize.mjs writes: special tokens in
// the text are recognized, none is added, and the decoding leaves control tokens out (as Hugging
// Face's decode with skip_special_tokens).
//   node llama_cpp_tokenize_lines.mjs NODE_LLAMA_CPP_MODULES GGUF TEXT_FILE
// Exit status 77 when node-llama-cpp cannot be loaded from NODE_LLAMA_CPP_MODULES.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modules, ggufPath, textPath] = process.argv.slice(2);
let nodeLlamaCpp;
try {
  const resolved = createRequire(path.join(path.resolve(modules), "package.json"))
      .resolve("node-llama-cpp");
  nodeLlamaCpp = await import(pathToFileURL(resolved).href);
} catch (e) {
  console.log(`SKIP: node-llama-cpp is not installed in ${modules}: ${e.message}`);
  process.exit(77);
}
const { getLlama, LlamaLogLevel } = nodeLlamaCpp;
const llama = await getLlama({ gpu: false, build: "never", skipDownload: true,
                               logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: ggufPath, gpuLayers: 0, vocabOnly: true });
const lines = readFileSync(textPath, "utf8").split("\n");
if (lines.at(-1) === "") lines.pop();
const out = [];
for (const line of lines) {
  const ids = Array.from(model.tokenize(line, true));
  out.push(JSON.stringify({ ids, decoded: model.detokenize(ids, false) }));
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
await model.dispose();
await llama.dispose();
