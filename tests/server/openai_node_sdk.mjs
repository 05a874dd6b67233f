// A real third-party client against `infergate serve` (or `infergate router` before it): the
// official OpenAI Node SDK lists the models, creates a completion and a chat completion twice
// each, whole and streamed, and checks they agree and that the stream's last chunk carries
// usage; then every sampling field the server takes (penalties, logit_bias, min_tokens, seed,
// n, logprobs, echo, an ignored `user`), structured output (a JSON schema, a choice), tool calls
// (required, a named function streamed, a tool result sent back, none), and the refusals of
// absurd values.
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

// Sampling fields, whole and streamed.
const prompt = [1, 42, 300, 7];
const sampled = {model, prompt, max_tokens: 8, temperature: 0.8, seed: 11, user: "sdk-test",
                 frequency_penalty: 0.5, presence_penalty: 0.3, repetition_penalty: 1.1,
                 logit_bias: {"5": 2.0}};
const a = await client.completions.create(sampled);
const b = await client.completions.create(sampled);
if (a.choices[0].text !== b.choices[0].text) fail("a seed did not reproduce the completion");

const greedy = {model, prompt, max_tokens: 6, temperature: 0};
const banned = whole.choices[0].token_ids[0];
const biased = await client.completions.create({...greedy, logit_bias: {[banned]: -100}});
if (biased.choices[0].token_ids.includes(banned)) fail(`logit_bias -100 let ${banned} through`);

const eos = await client.completions.create({...greedy, max_tokens: 12, min_tokens: 9,
                                             logit_bias: {"2": 100}});
if (eos.usage.completion_tokens !== 10 || eos.choices[0].finish_reason !== "stop") {
  fail(`min_tokens 9 with EOS favoured: ${JSON.stringify(eos.choices[0])}`);
}

const withLogprobs = await client.completions.create({...greedy, logprobs: 3});
const lp = withLogprobs.choices[0].logprobs;
if (lp?.token_logprobs?.length !== 6 || lp.top_logprobs[0] === undefined ||
    Object.keys(lp.top_logprobs[0]).length < 3 || !(lp.token_logprobs[0] <= 0)) {
  fail(`completion logprobs ${JSON.stringify(lp)}`);
}
// Greedy: the chosen token is the most likely one, whose logprob heads the alternatives.
if (Math.max(...Object.values(lp.top_logprobs[0])) !== lp.token_logprobs[0]) {
  fail(`greedy token is not the most likely: ${JSON.stringify(lp.top_logprobs[0])}`);
}

const three = await client.completions.create({...sampled, n: 3});
if (three.choices.length !== 3 || new Set(three.choices.map(c => c.index)).size !== 3) {
  fail(`n = 3 gave ${JSON.stringify(three.choices.map(c => c.index))}`);
}
if (three.choices[0].text !== a.choices[0].text) fail("choice 0 of n does not draw with the seed");
if (three.usage.completion_tokens !== 24) fail(`n = 3 usage ${JSON.stringify(three.usage)}`);
const threeStream = await client.completions.create({...sampled, n: 3, stream: true});
const streamedChoices = ["", "", ""];
for await (const chunk of threeStream) {
  for (const choice of chunk.choices) streamedChoices[choice.index] += choice.text;
}
if (streamedChoices.join("|") !== three.choices.map(c => c.text).join("|")) {
  fail(`n = 3 streamed ${JSON.stringify(streamedChoices)}`);
}

const echoed = await client.completions.create({...greedy, prompt: "def read", echo: true});
if (!echoed.choices[0].text.startsWith("def read")) fail(`echo ${echoed.choices[0].text}`);

const chatLogprobs = await client.chat.completions.create(
    {...chatRequest, logprobs: true, top_logprobs: 2, n: 2, presence_penalty: 0.2});
const content = chatLogprobs.choices[1]?.logprobs?.content;
if (chatLogprobs.choices.length !== 2 || !content?.length || content[0].top_logprobs.length !== 2 ||
    typeof content[0].token !== "string" || !Array.isArray(content[0].bytes)) {
  fail(`chat logprobs ${JSON.stringify(chatLogprobs.choices)}`);
}

// Structured output: a JSON schema through response_format, and vLLM's guided_choice.
const schema = {type: "object", additionalProperties: false, required: ["city", "days", "tags"],
                properties: {city: {type: "string", maxLength: 12},
                             days: {type: "integer", minimum: 1, maximum: 30},
                             tags: {type: "array", items: {enum: ["sun", "rain"]}, maxItems: 3}}};
for (const seed of [1, 2, 3]) {
  const structured = await client.chat.completions.create({
    ...chatRequest, max_completion_tokens: 200, temperature: 1, seed,
    response_format: {type: "json_schema", json_schema: {name: "trip", schema, strict: true}}});
  const trip = JSON.parse(structured.choices[0].message.content);
  if (structured.choices[0].finish_reason !== "stop" || typeof trip.city !== "string" ||
      !Number.isInteger(trip.days) || trip.days < 1 || trip.days > 30 ||
      !trip.tags.every(t => t === "sun" || t === "rain") || Object.keys(trip).length !== 3) {
    fail(`response_format json_schema gave ${structured.choices[0].message.content}`);
  }
}
const picked = await client.completions.create({...sampled, guided_choice: ["left", "right"]});
if (!["left", "right"].includes(picked.choices[0].text)) fail(`guided_choice ${picked.choices[0].text}`);

// Tool calling: required and a named function make the answer a call whose arguments follow
// the function's schema (whole and streamed); the call and its result go back as a next turn.
const tools = [{type: "function", function: {name: "get_weather", description: "Weather now.",
  parameters: {type: "object", additionalProperties: false, required: ["city", "unit"],
               properties: {city: {type: "string", maxLength: 12}, unit: {enum: ["C", "F"]}}}}},
  {type: "function", function: {name: "now", parameters: {type: "object", properties: {}}}}];
const weatherArgs = (text) => {
  const args = JSON.parse(text);
  return typeof args.city === "string" && args.city.length <= 12 && ["C", "F"].includes(args.unit) &&
         Object.keys(args).length === 2;
};
const toolTurn = {...chatRequest, tools, max_completion_tokens: 200, temperature: 1, seed: 5};
const called = await client.chat.completions.create(
    {...toolTurn, tool_choice: "required", parallel_tool_calls: false});
const call = called.choices[0].message.tool_calls?.[0];
if (called.choices[0].finish_reason !== "tool_calls" || called.choices[0].message.tool_calls.length !== 1 ||
    !call.id.startsWith("call_") || !["get_weather", "now"].includes(call.function.name) ||
    (call.function.name === "get_weather" && !weatherArgs(call.function.arguments))) {
  fail(`tool_choice required gave ${JSON.stringify(called.choices[0])}`);
}
const namedStream = await client.chat.completions.create(
    {...toolTurn, tool_choice: {type: "function", function: {name: "get_weather"}}, stream: true});
const streamedCalls = [];
let namedReason = null;
for await (const chunk of namedStream) {
  for (const d of chunk.choices[0]?.delta?.tool_calls ?? []) {
    streamedCalls[d.index] ??= {name: "", arguments: ""};
    streamedCalls[d.index].name += d.function?.name ?? "";
    streamedCalls[d.index].arguments += d.function?.arguments ?? "";
  }
  namedReason = chunk.choices[0]?.finish_reason ?? namedReason;
}
if (streamedCalls.length !== 1 || streamedCalls[0].name !== "get_weather" ||
    !weatherArgs(streamedCalls[0].arguments) || namedReason !== "tool_calls") {
  fail(`a streamed named tool_choice gave ${JSON.stringify(streamedCalls)} (${namedReason})`);
}
const nextTurn = await client.chat.completions.create({...toolTurn, max_completion_tokens: 8,
  messages: [...chatRequest.messages, called.choices[0].message,
             {role: "tool", tool_call_id: call.id, content: "sunny, 21"}]});
const shown = await client.chat.completions.create({...toolTurn, max_completion_tokens: 8,
                                                     tool_choice: "none"});
if (!nextTurn.choices[0].finish_reason || shown.choices[0].message.tool_calls !== undefined) {
  fail(`tool results or tool_choice none: ${JSON.stringify([nextTurn.choices[0], shown.choices[0]])}`);
}
try {
  await client.chat.completions.create(
      {...toolTurn, tool_choice: {type: "function", function: {name: "later"}}});
  fail("a tool_choice naming no tool was accepted");
} catch (e) {
  if (e.status !== 400 || e.param !== "tool_choice.function.name") {
    fail(`tool_choice naming no tool: ${e.status} ${e.param}`);
  }
}

// Absurd values: a 400 naming the field.
for (const [body, param] of [[{...greedy, n: 10000}, "n"],
                             [{...greedy, logit_bias: {"99999999": 1}}, "logit_bias.99999999"],
                             [{...greedy, logprobs: 1000000}, "logprobs"],
                             [{...greedy, best_of: 2}, "best_of"],
                             [{...greedy, guided_regex: "(a"}, "guided_regex"]]) {
  try {
    await client.completions.create(body);
    fail(`${param} was accepted`);
  } catch (e) {
    if (e.status !== 400 || e.param !== param) fail(`${param}: ${e.status} ${e.param} ${e.message}`);
  }
}
try {
  await client.chat.completions.create({...chatRequest, logprobs: true, top_logprobs: 1000000});
  fail("top_logprobs 1000000 was accepted");
} catch (e) {
  if (e.status !== 400 || e.param !== "top_logprobs") fail(`top_logprobs: ${e.status} ${e.param}`);
}

try {
  await new OpenAI({baseURL, apiKey: "wrong", maxRetries: 0}).models.list();
  fail("a wrong API key was accepted");
} catch (e) {
  if (e.status !== 401) fail(`wrong key gave ${e.status}, want 401`);
}
console.log(`ok: ${model}: ${JSON.stringify(text)} and chat ${JSON.stringify(reply)} whole and ` +
            "streamed, usage in the last chunk; sampling fields, n, logprobs, echo, structured output, " +
            "tool calls and refusals");
