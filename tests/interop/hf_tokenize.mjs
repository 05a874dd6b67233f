// Hugging Face's own tokenizer (the `tokenizers` package: the Rust library's Node.js binding) on
// every line of a text file, as JSON lines {"ids", "decoded"}: the reference hf_tokenizers.sh
// compares `infergate tokenize --lines` with.
//   node hf_tokenize.mjs NODE_MODULES_DIR TOKENIZER_JSON TEXT_FILE [--special]
// --special: add the post-processor's special tokens (BOS), as `infergate tokenize --lines`
// does without --no-special.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const [modules, tokenizerPath, textPath, ...flags] = process.argv.slice(2);
const require = createRequire(path.join(modules, "package.json"));
const { Tokenizer } = require("tokenizers");
const tokenizer = Tokenizer.fromFile(tokenizerPath);
const addSpecialTokens = flags.includes("--special");
const text = readFileSync(textPath, "utf8");
const lines = text.split("\n");
if (lines.at(-1) === "") lines.pop();
const out = [];
for (const line of lines) {
  const encoding = await tokenizer.encode(line, null, { addSpecialTokens });
  const ids = Array.from(encoding.getIds());
  out.push(JSON.stringify({ ids, decoded: await tokenizer.decode(ids, true) }));
}
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
