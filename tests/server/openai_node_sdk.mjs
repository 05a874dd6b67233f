// A real third-party client against `infergate serve`: the official OpenAI Node SDK lists the
// models, then creates a completion and a chat completion twice each, whole and streamed, and
// checks they agree and that the stream's last chunk carries usage.
//
//   node openai_node_sdk.mjs BASE_URL API_KEY
//
// The SDK is resolved from $INFERGATE_NODE_MODULES (a folder holding node_modules/).
import path from "node:path";
import {createRequire} from "node:module";
import {pathToFileURL} from "node:url";

const [baseURL, apiKey] = process.argv.slice(2);
const root = process.env.INFERGATE_NODE_MODULES;
const resolved = createRequire(path.join(path.resolve(root), "package.json")).resolve("openai");
const {default: OpenAI} = await import(pathToFileURL(resolved).href);

function fail(message) {
  console.error(`FAIL: ${message}`);
  process.exit(1);
}

const client = new OpenAI({baseURL, apiKey, maxRetries: 0});
const models = await client.models.list();
const model = models.data[0]?.id;
if (!model) fail("no model listed");

const request = {model, prompt: [1, 42, 300, 7], max_tokens: 12, temperature: 0};
const whole = await client.completions.create(request);
const text = whole.choices[0].text;
if (whole.usage?.completion_tokens !== 12) fail(`usage ${JSON.stringify(whole.usage)}`);

const stream = await client.completions.create(
    {...request, stream: true, stream_options: {include_usage: true}});
let streamed = "";
let usage = null;
let finish = null;
for await (const chunk of stream) {
  for (const choice of chunk.choices) {
    streamed += choice.text;
    finish = choice.finish_reason ?? finish;
  }
  if (chunk.usage) usage = chunk.usage;
}
if (streamed !== text) fail(`streamed ${JSON.stringify(streamed)} != ${JSON.stringify(text)}`);
if (finish !== "length") fail(`finish_reason ${finish}`);
if (usage?.completion_tokens !== 12 || usage?.prompt_tokens !== 4) {
  fail(`stream usage ${JSON.stringify(usage)}`);
}

const chatRequest = {
  model,
  messages: [{role: "system", content: "Be brief."}, {role: "user", content: "Hello!"}],
  max_completion_tokens: 10,
  temperature: 0,
};
const chat = await client.chat.completions.create(chatRequest);
const reply = chat.choices[0].message.content;
if (chat.choices[0].message.role !== "assistant") fail(`chat role ${chat.choices[0].message.role}`);
const chatStream = await client.chat.completions.create(
    {...chatRequest, stream: true, stream_options: {include_usage: true}});
let streamedReply = "";
let chatUsage = null;
for await (const chunk of chatStream) {
  for (const choice of chunk.choices) streamedReply += choice.delta?.content ?? "";
  if (chunk.usage) chatUsage = chunk.usage;
}
if (streamedReply !== reply) fail(`chat streamed ${JSON.stringify(streamedReply)} != ${JSON.stringify(reply)}`);
if (chatUsage?.completion_tokens !== chat.usage.completion_tokens) {
  fail(`chat stream usage ${JSON.stringify(chatUsage)} vs ${JSON.stringify(chat.usage)}`);
}

try {
  await new OpenAI({baseURL, apiKey: "wrong", maxRetries: 0}).models.list();
  fail("a wrong API key was accepted");
} catch (e) {
  if (e.status !== 401) fail(`wrong key gave ${e.status}, want 401`);
}
console.log(`ok: ${model}: ${JSON.stringify(text)} and chat ${JSON.stringify(reply)} whole and ` +
            "streamed, usage in the last chunk");
