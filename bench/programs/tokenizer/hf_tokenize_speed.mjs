// Hugging Face's tokenizers (npm `tokenizers`, the Rust library) encoding one whole text file
// REPS times; prints the best time as JSON, as `infergate tokenize --bench` does.
//   node hf_tokenize_speed.mjs NODE_MODULES_DIR TOKENIZER_JSON TEXT_FILE REPS
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const [modules, tokenizerPath, textPath, repsText] = process.argv.slice(2);
const require = createRequire(path.join(modules, "package.json"));
const { Tokenizer } = require("tokenizers");
const tokenizer = Tokenizer.fromFile(tokenizerPath);
const text = readFileSync(textPath, "utf8");
let best = Infinity;
let tokens = 0;
for (let r = 0; r < Number(repsText); ++r) {
  const start = process.hrtime.bigint();
  const encoding = await tokenizer.encode(text, null, { addSpecialTokens: true });
  tokens = encoding.getIds().length;
  best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
}
const bytes = Buffer.byteLength(text);
console.log(JSON.stringify({ bytes, tokens, reps: Number(repsText), best_s: best, mb_per_s: bytes / 1e6 / best }));
