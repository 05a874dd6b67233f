// Stream events as OpenAI-compatible servers send them, read into chunks, and the token rules
// of docs/metrics.md ("HTTP targets") applied to them.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/http/stream_chunk.h"
#include "bench/http/stream_tally.h"

namespace infergate {
namespace {

TEST_CASE("stream chunks: completions, chat, usage, [DONE] and errors") {
  const StreamChunk text = parse_stream_chunk(
      R"({"id":"c","object":"text_completion","choices":[{"index":0,"text":"ab","token_ids":[5,6],"finish_reason":null}]})");
  CHECK(text.token_ids == 2);
  CHECK(text.has_text);
  CHECK(text.finish_reason.empty());
  CHECK_FALSE(text.usage);

  const StreamChunk role = parse_stream_chunk(
      R"({"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]})");
  CHECK(role.token_ids == -1);
  CHECK_FALSE(role.has_text);

  const StreamChunk chat = parse_stream_chunk(
      R"({"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"length"}]})");
  CHECK(chat.has_text);
  CHECK(chat.finish_reason == "length");

  const StreamChunk usage = parse_stream_chunk(
      R"({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}})");
  REQUIRE(usage.usage);
  CHECK(usage.usage->prompt_tokens == 7);
  CHECK(usage.usage->completion_tokens == 3);
  CHECK(usage.token_ids == -1);

  CHECK(parse_stream_chunk("[DONE]").done);
  CHECK_THAT(parse_stream_chunk(R"({"error":{"message":"engine died","code":500}})").error,
             Catch::Contains("engine died"));
  CHECK_THAT(parse_stream_chunk("{not json").error, Catch::Contains("not a JSON object"));
  CHECK(parse_stream_chunk(R"({"choices":[{"text":"","usage":null}]})").error.empty());
}

TEST_CASE("OpenAI error bodies give their message") {
  CHECK(error_message_of(R"({"error":{"message":"no such model","code":404}})") == "no such model");
  CHECK(error_message_of(R"({"error":"overloaded"})") == "overloaded");
  CHECK(error_message_of(R"({"detail":"Not Found"})") == "Not Found");
  CHECK(error_message_of("Bad Gateway") == "Bad Gateway");
  CHECK(error_message_of(std::string(400, 'x'), 10) == "xxxxxxxxxx...");
}

StreamChunk ids_chunk(int n, const char* reason = "") {
  StreamChunk c;
  c.token_ids = n;
  c.has_text = n > 0;
  c.finish_reason = reason;
  return c;
}

StreamChunk text_chunk() {
  StreamChunk c;
  c.has_text = true;
  return c;
}

StreamChunk usage_chunk(int prompt, int completion) {
  StreamChunk c;
  c.usage = StreamUsage{prompt, completion};
  return c;
}

using Times = std::vector<int64_t>;

TEST_CASE("a multi-token chunk stamps each of its tokens with its arrival") {
  StreamTally t;
  t.add(100, ids_chunk(1));
  t.add(200, ids_chunk(3));  // e.g. speculative decoding: three tokens at once
  t.add(300, ids_chunk(0, "length"));
  t.add(300, usage_chunk(9, 4));
  const TallyResult r = t.finish(310);
  CHECK(r.token_times_ns == Times{100, 200, 200, 200});
  CHECK(r.streamed_tokens == 4);
  CHECK(r.usage_tokens == 4);
  CHECK(r.prompt_tokens == 9);
  CHECK(r.counted_by_ids);
  CHECK_FALSE(r.mismatch);
  CHECK(t.finish_reason() == "length");
}

TEST_CASE("usage is the count: a disagreement with the streamed ids is flagged") {
  StreamTally more;  // usage reports a token no chunk carried: stamped at the end
  more.add(100, ids_chunk(2));
  more.add(150, usage_chunk(1, 3));
  const TallyResult m = more.finish(170);
  CHECK(m.token_times_ns == Times{100, 100, 170});
  CHECK(m.mismatch);
  CHECK(m.streamed_tokens == 2);

  StreamTally fewer;  // usage reports fewer: the latest streamed ones are dropped
  fewer.add(100, ids_chunk(1));
  fewer.add(200, ids_chunk(2));
  fewer.add(200, usage_chunk(1, 2));
  const TallyResult f = fewer.finish(210);
  CHECK(f.token_times_ns == Times{100, 200});
  CHECK(f.mismatch);
  CHECK(f.streamed_tokens == 3);
}

TEST_CASE("without token ids, usage is spread evenly over the chunks with text") {
  StreamTally t;
  t.add(10, text_chunk());
  t.add(20, text_chunk());
  t.add(30, text_chunk());
  t.add(30, usage_chunk(4, 7));
  const TallyResult r = t.finish(40);
  // chunk j of 3 gets floor((j+1)*7/3) - floor(j*7/3): 2, 2, 3
  CHECK(r.token_times_ns == Times{10, 10, 20, 20, 30, 30, 30});
  CHECK_FALSE(r.counted_by_ids);
  CHECK_FALSE(r.mismatch);

  StreamTally no_usage;  // one token per chunk with text; a chunk without text carries none
  no_usage.add(10, text_chunk());
  no_usage.add(15, StreamChunk{});
  no_usage.add(20, text_chunk());
  const TallyResult n = no_usage.finish(25);
  CHECK(n.token_times_ns == Times{10, 20});
  CHECK_FALSE(n.usage_tokens);

  StreamTally impossible;  // more text chunks than tokens
  impossible.add(10, text_chunk());
  impossible.add(20, text_chunk());
  impossible.add(20, usage_chunk(1, 1));
  const TallyResult i = impossible.finish(25);
  CHECK(i.mismatch);
  CHECK(i.token_times_ns == Times{20});
}

}  // namespace
}  // namespace infergate

namespace infergate {
namespace {

// A chat chunk with reasoning_content and/or content (and token ids when `ids` > 0).
std::string chat_chunk(const std::string& reasoning, const std::string& content, int ids = 0) {
  nlohmann::json delta = nlohmann::json::object();
  if (!reasoning.empty()) delta["reasoning_content"] = reasoning;
  if (!content.empty()) delta["content"] = content;
  nlohmann::json choice = {{"index", 0}, {"delta", delta}, {"finish_reason", nullptr}};
  if (ids > 0) choice["token_ids"] = std::vector<int>(size_t(ids), 7);
  return nlohmann::json{{"choices", {choice}}}.dump();
}

std::string text_chunk(const std::string& text) {
  return nlohmann::json{{"choices", {{{"index", 0}, {"text", text}}}}}.dump();
}

TallyResult tally_of(const std::vector<std::string>& events, const ThinkSpan& span = {}) {
  StreamTally t(span);
  int64_t at = 100;
  for (const std::string& e : events) t.add(at += 10, parse_stream_chunk(e));
  return t.finish(at + 10);
}

TEST_CASE("reasoning chunks are counted apart from the answer's, by field or by think tags") {
  // vLLM's and SGLang's field, and vLLM's newer name for it.
  CHECK(parse_stream_chunk(chat_chunk("hm", "")).reasoning == "hm");
  CHECK(parse_stream_chunk(R"({"choices":[{"delta":{"reasoning":"hm"}}]})").reasoning == "hm");
  CHECK(parse_stream_chunk(chat_chunk("hm", "")).has_text);  // thinking is output too

  const TallyResult field =
      tally_of({chat_chunk("a", "", 2), chat_chunk("b", "", 1), chat_chunk("", "x", 2)});
  CHECK(field.token_times_ns.size() == 5);
  CHECK(field.reasoning_tokens == 3);

  // No reasoning at all: absent, not 0.
  CHECK_FALSE(tally_of({chat_chunk("", "x", 1), chat_chunk("", "y", 1)}).reasoning_tokens);

  // Thinking in the text between tags the workload names; blanks after the close are not yet
  // the answer.
  const ThinkSpan think{"<think>", "</think>"};
  const std::vector<std::string> spanned = {text_chunk("<think>a"),  text_chunk("b"),
                                            text_chunk("c</think>"), text_chunk("\n\n"),
                                            text_chunk("Yes"),       text_chunk(".")};
  CHECK(tally_of(spanned, think).reasoning_tokens == 4);
  CHECK_FALSE(tally_of(spanned).reasoning_tokens);  // without the span: all answer
  // A template that opened the span itself: the text holds only the close.
  CHECK(tally_of({text_chunk("a"), text_chunk("</think>Yes")}, think).reasoning_tokens == 1);
  // A chunk carrying the end of the thinking and the start of the answer counts as answer.
  CHECK(tally_of({text_chunk("<think>a"), text_chunk("b</think>Yes")}, think).reasoning_tokens ==
        1);
  // Tags named but not in the text: no reasoning.
  CHECK_FALSE(tally_of({text_chunk("Yes"), text_chunk(".")}, think).reasoning_tokens);
  // Thinking cut off by max_tokens: every token was thinking.
  CHECK(tally_of({text_chunk("<think>a"), text_chunk("b")}, think).reasoning_tokens == 2);
}

TEST_CASE("reasoning tokens follow the usage's spread over text chunks") {
  // No token ids: usage's 6 tokens over 3 chunks, 2 each; the first chunk was thinking.
  const std::string usage = R"({"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":6}})";
  const TallyResult r =
      tally_of({chat_chunk("a", ""), chat_chunk("", "x"), chat_chunk("", "y"), usage});
  CHECK(r.token_times_ns.size() == 6);
  CHECK(r.reasoning_tokens == 2);
}

}  // namespace
}  // namespace infergate
