// With special tokens added: our ids must be Hugging Face's tokenizers' ids, except that where
// tokenizer_config.json sets add_bos_token (or add_eos_token), the BOS (EOS) is there exactly
// when the flag says, as transformers' Llama and Gemma tokenizers rebuild their post-processor.
//   node expect_bos.mjs MODEL_DIR REFERENCE.jsonl OURS.jsonl LABEL
import { readFileSync } from "node:fs";
import path from "node:path";

const [dir, referencePath, oursPath, label] = process.argv.slice(2);
const config = JSON.parse(readFileSync(path.join(dir, "tokenizer_config.json"), "utf8"));
const tokenizer = JSON.parse(readFileSync(path.join(dir, "tokenizer.json"), "utf8"));
const idOf = (token) => {
  const content = typeof token === "string" ? token : token?.content;
  const added = tokenizer.added_tokens.find((t) => t.content === content);
  return added ? added.id : tokenizer.model.vocab[content];
};
const read = (p) => readFileSync(p, "utf8").split("\n").filter((l) => l).map((l) => JSON.parse(l).ids);
const reference = read(referencePath);
const ours = read(oursPath);
let failed = 0;
for (let i = 0; i < reference.length; ++i) {
  let expected = [...reference[i]];
  const bos = idOf(config.bos_token);
  const eos = idOf(config.eos_token);
  if (typeof config.add_bos_token === "boolean") {
    if (expected[0] === bos) expected.shift();
    if (config.add_bos_token) expected.unshift(bos);
  }
  if (typeof config.add_eos_token === "boolean") {
    if (expected.at(-1) === eos) expected.pop();
    if (config.add_eos_token) expected.push(eos);
  }
  if (JSON.stringify(expected) !== JSON.stringify(ours[i])) {
    ++failed;
    console.log(`${label}: with special tokens, line ${i + 1}: expected ${JSON.stringify(expected)}, ours ${JSON.stringify(ours[i])}`);
  }
}
console.log(`${label}: special tokens added as expected on ${reference.length - failed} of ${reference.length} lines`);
process.exit(failed ? 1 : 0);
