// Compares two files of JSON lines {"ids", "decoded"} (Hugging Face's and ours) line by line,
// with the text they came from: prints each differing line (the first 5 in full) and a summary;
// exit status 0 when every line's ids and decoded text agree, 1 otherwise.
//   node compare_token_lines.mjs TEXT_FILE REFERENCE.jsonl OURS.jsonl LABEL [FLAGS]
// --ids-only: decodings are compared and counted but do not fail (llama.cpp cleans up spaces in
// its decoding as transformers does, which the tokenizers library does not).
// --nfc-only: lines that NFC changes are left out and counted (a GGUF has no normalizer).
// --without=TEXT: lines holding TEXT are left out and counted.
import { readFileSync } from "node:fs";

const [textPath, referencePath, oursPath, label, ...flags] = process.argv.slice(2);
const idsOnly = flags.includes("--ids-only");
const nfcOnly = flags.includes("--nfc-only");
const without = flags.filter((f) => f.startsWith("--without=")).map((f) => f.slice(10));
const lines = (path) => readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
const texts = readFileSync(textPath, "utf8").split("\n");
const reference = lines(referencePath).map((l) => JSON.parse(l));
const ours = lines(oursPath).map((l) => JSON.parse(l));
let idDiffs = 0;
let decodeDiffs = 0;
let shown = 0;
let skipped = 0;
if (reference.length !== ours.length) {
  console.log(`${label}: ${reference.length} reference lines, ${ours.length} of ours`);
  process.exit(1);
}
for (let i = 0; i < reference.length; ++i) {
  if ((nfcOnly && texts[i].normalize("NFC") !== texts[i]) ||
      without.some((t) => texts[i].includes(t))) {
    ++skipped;
    continue;
  }
  const sameIds = JSON.stringify(reference[i].ids) === JSON.stringify(ours[i].ids);
  const sameText = reference[i].decoded === ours[i].decoded;
  if (!sameIds) ++idDiffs;
  if (!sameText) ++decodeDiffs;
  if ((!sameIds || (!sameText && !idsOnly)) && shown++ < 5) {
    console.log(`${label}: line ${i + 1}: ${JSON.stringify(texts[i])}`);
    console.log(`  reference ids ${JSON.stringify(reference[i].ids)}`);
    console.log(`  ours      ids ${JSON.stringify(ours[i].ids)}`);
    if (!sameText) {
      console.log(`  reference decoded ${JSON.stringify(reference[i].decoded)}`);
      console.log(`  ours      decoded ${JSON.stringify(ours[i].decoded)}`);
    }
  }
}
console.log(`${label}: ${reference.length - skipped} lines` +
            (skipped ? ` (${skipped} left out: ${flags.filter((f) => f !== "--ids-only").join(" ")})` : "") +
            `, ids differ on ${idDiffs}, decoded text on ${decodeDiffs}` +
            (idsOnly && decodeDiffs ? " (not judged)" : ""));
process.exit(idDiffs || (decodeDiffs && !idsOnly) ? 1 : 0);
