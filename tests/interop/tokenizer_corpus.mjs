// Writes the corpus the tokenizers are compared on (docs/model-formats.md, "Tokenizers and chat
// templates"): at least 12,000 lines, the same every time (a seeded generator), assembled from
//   - this repository's own docs and sources (English prose, Markdown, C++, shell, Python);
//   - sentences in 30 languages and scripts, re-mixed with punctuation and numbers;
//   - random characters from 40 Unicode blocks (letters, marks, digits, symbols, emoji with
//     joiners, skin tones and flags), mixed with ASCII;
//   - whitespace runs (spaces, tabs, \r, no-break and ideographic spaces, U+0085, U+2003);
//   - digit strings in several numeral systems, decimals, separators, fractions;
//   - the special tokens of the compared vocabularies inside text, glued and spaced;
//   - contractions and case traps ("DON'T", "ſ", "İ", the Kelvin sign).
// No line holds "\n" (each line is tokenized by itself).
//   node tokenizer_corpus.mjs REPO_ROOT OUT_FILE
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const [root, outPath] = process.argv.slice(2);
let seed = 20261205;
const random = () => {  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
const lines = [];

// 1. The repository's own text.
function walk(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith(".") || name === "build" || name === "node_modules") continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(md|cc|h|py|sh|mjs|json|txt)$/.test(name)) out.push(full);
  }
}
const files = [];
for (const sub of ["docs", "engine/tokenizer", "bench/quality", "ci", "workloads", "README.md"]) {
  const full = path.join(root, sub);
  if (statSync(full).isDirectory()) walk(full, files);
  else files.push(full);
}
const repoLines = [];
for (const f of files) {
  for (const l of readFileSync(f, "utf8").split("\n")) if (l.trim() !== "") repoLines.push(l.slice(0, 400));
}
for (let i = 0; i < 3500; ++i) lines.push(repoLines[Math.floor((i * repoLines.length) / 3500)]);

// 2. Sentences in many languages and scripts.
const sentences = [
  "The quick brown fox jumps over the lazy dog.",
  "Le cœur a ses raisons que la raison ne connaît point.",
  "Über den Wolken muss die Freiheit wohl grenzenlos sein, sagte der Straßenbahnfahrer.",
  "¿Dónde está la biblioteca? ¡Está allí, señor!",
  "A vida é bela, não é? Coração, ação e informação.",
  "La donna è mobile qual piuma al vento.",
  "Zażółć gęślą jaźń, powiedział Łukasz.",
  "Příliš žluťoučký kůň úpěl ďábelské ódy.",
  "Árvíztűrő tükörfúrógép és ünnepi őrség.",
  "Şu çılgın Türk işçi ğüzel İstanbul'da.",
  "Съешь же ещё этих мягких французских булок, да выпей чаю.",
  "Жебракують філософи при ґанку церкви в Гадячі.",
  "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
  "שלום עולם, מה שלומך היום?",
  "مرحبا بالعالم، كيف حالك اليوم؟ ١٢٣٤٥",
  "سلام دنیا، امروز هوا خوب است.",
  "नमस्ते दुनिया, आज मौसम अच्छा है। १२३",
  "ওহে বিশ্ব, আজ আবহাওয়া ভালো।",
  "வணக்கம் உலகம், இன்று வானிலை நன்றாக உள்ளது.",
  "สวัสดีชาวโลก วันนี้อากาศดีมาก",
  "Xin chào thế giới, hôm nay trời đẹp quá.",
  "你好，世界！今天天气很好，我们去公园散步吧。",
  "機器學習與自然語言處理的進展令人驚嘆。",
  "こんにちは世界。今日はいい天気ですね、カタカナもひらがなも。",
  "안녕하세요 세계, 오늘 날씨가 좋네요.",
  "Բարև աշխարհ, ինչպես ես։",
  "გამარჯობა მსოფლიო, როგორ ხარ?",
  "ሰላም ለዓለም፣ እንዴት ነህ?",
  "Салом дунё, шумо чӣ хел?",
  "Habari dunia, leo hali ya hewa ni nzuri.",
  "Kia ora te ao, he pai te rangi.",
  "Hej världen, smörgåsbord och blåbär.",
  "Hyvää huomenta, äiti ja isä!",
  "Iñtërnâtiônàlizætiøn ☃ ℌ𝔢𝔩𝔩𝔬 𝓦𝓸𝓻𝓵𝓭",
];
const glue = [" ", ", ", "; ", " — ", " / ", "! ", "? ", "... ", " (", ") ", " «", "» ", " \"", "\" "];
for (let i = 0; i < 2500; ++i) {
  let line = pick(sentences);
  for (let k = int(0, 3); k > 0; --k) line += pick(glue) + pick(sentences);
  if (random() < 0.3) line = line.toUpperCase();
  if (random() < 0.3) line += " " + int(0, 1e6);
  lines.push(line);
}

// 3. Random characters from many Unicode blocks.
const blocks = [
  [0x20, 0x7e], [0xa0, 0xff], [0x100, 0x17f], [0x180, 0x24f], [0x250, 0x2af], [0x300, 0x36f],
  [0x370, 0x3ff], [0x400, 0x4ff], [0x530, 0x58f], [0x590, 0x5ff], [0x600, 0x6ff], [0x900, 0x97f],
  [0x980, 0x9ff], [0xb80, 0xbff], [0xe00, 0xe7f], [0x10a0, 0x10ff], [0x1100, 0x11ff],
  [0x1e00, 0x1eff], [0x2000, 0x206f], [0x20a0, 0x20cf], [0x2100, 0x214f], [0x2190, 0x21ff],
  [0x2200, 0x22ff], [0x2500, 0x257f], [0x2600, 0x26ff], [0x2700, 0x27bf], [0x3000, 0x303f],
  [0x3040, 0x309f], [0x30a0, 0x30ff], [0x4e00, 0x9fff], [0xac00, 0xd7a3], [0xf900, 0xfaff],
  [0xfe30, 0xfe4f], [0xff00, 0xffef], [0x1d400, 0x1d7ff], [0x1f300, 0x1f5ff],
  [0x1f600, 0x1f64f], [0x1f680, 0x1f6ff], [0x1f900, 0x1f9ff], [0x20000, 0x2a6df],
];
const emoji = ["👩‍💻", "👨‍👩‍👧‍👦", "👍🏽", "🇫🇷", "🇯🇵", "🏳️‍🌈", "❤️", "✌🏿", "🧑🏻‍🚀", "😀", "🤖", "🔥"];
for (let i = 0; i < 3000; ++i) {
  let line = "";
  for (let k = int(1, 40); k > 0; --k) {
    const r = random();
    if (r < 0.1) line += pick(emoji);
    else if (r < 0.25) line += " ";
    else if (r < 0.35) line += pick(["a", "the", "of", "and", "x", "123", "'s", "'ll"]);
    else {
      const [lo, hi] = pick(blocks);
      line += String.fromCodePoint(int(lo, hi));
    }
  }
  lines.push(line);
}

// 4. Whitespace runs.
const spaces = [" ", "  ", "    ", "\t", "\t\t", "\r", " \r ", "\u00a0", "\u3000", "\u2003", "\u0085", "\u200b", "\u2028"];
for (let i = 0; i < 1500; ++i) {
  let line = random() < 0.5 ? pick(spaces).repeat(int(1, 8)) : "";
  for (let k = int(1, 8); k > 0; --k) line += pick(["word", "x", "Hello", "123", "é", "中文", "(", "!"]) + pick(spaces).repeat(int(1, 30));
  lines.push(line);
}

// 5. Numbers.
const digitSets = ["0123456789", "٠١٢٣٤٥٦٧٨٩", "۰۱۲۳۴۵۶۷۸۹", "०१२३४५६७८९", "０１２３４５６７８９", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"];
for (let i = 0; i < 1500; ++i) {
  const digits = pick(digitSets);
  const run = (n) => Array.from({ length: n }, () => [...digits][int(0, 9)]).join("");
  lines.push(pick([
    () => run(int(1, 40)),
    () => `${run(int(1, 4))}.${run(int(1, 9))}`,
    () => `${run(int(1, 3))},${run(3)},${run(3)}`,
    () => `price: $${run(int(1, 6))}.${run(2)} (${run(2)}%) ½ ¾ ² ³ Ⅻ`,
    () => `${run(4)}-${run(2)}-${run(2)}T${run(2)}:${run(2)}:${run(2)}Z`,
    () => `0x${int(0, 0xffffff).toString(16)} 1e-${run(1)} -${run(int(1, 12))}`,
  ])());
}

// 6. Special tokens of the compared vocabularies inside text.
const specials = [
  "<|begin_of_text|>", "<|end_of_text|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>",
  "<|im_start|>", "<|im_end|>", "<|endoftext|>", "<think>", "</think>", "<tool_call>", "<s>", "</s>",
  "<unk>", "<bos>", "<eos>", "<start_of_turn>", "<end_of_turn>", "<pad>", "<mask>",
  "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>", "<｜User｜>", "<｜Assistant｜>",
  "<|reserved_special_token_5|>", "<|python_tag|>", "<unused7>",
];
for (let i = 0; i < 1000; ++i) {
  let line = "";
  for (let k = int(1, 6); k > 0; --k) {
    line += pick(["", " ", "  ", "\t"]) + pick(specials) + pick(["", " ", "text", " word ", "user\n".trim(), "中"]);
  }
  lines.push(line);
}

// 7. Contractions and case traps.
const traps = ["I'M", "DON'T", "it'S", "we'LL", "they'VE", "She'd", "ſtraße", "İstanbul", "ıi", "K", "Å", "ﬁnance", "ǅ", "ẞ", "ΣΑΣ", "'s's's", "''ll", "O'Neil's"];
for (let i = 0; i < 800; ++i) {
  let line = "";
  for (let k = int(1, 10); k > 0; --k) line += pick(traps) + pick([" ", "", ", ", "'"]);
  lines.push(line);
}

const text = lines.map((l) => l.replace(/\n/g, " ")).join("\n") + "\n";
writeFileSync(outPath, text);
console.log(`wrote ${lines.length} lines (${Buffer.byteLength(text)} bytes) to ${outPath}`);
