#include "router/relayed_stream.h"

namespace infergate {

using nlohmann::json;

namespace {

void merge_kv_transfer(json& answer, const json& router_part) {
  json& record = answer["kv_transfer"];
  if (!record.is_object()) record = json::object();
  for (const auto& [key, value] : router_part.items()) record[key] = value;
}

}  // namespace

std::optional<std::string> RelayedStream::relay(const std::string& data) {
  if (data == "[DONE]") {
    done_sent_ = finished_ = true;
    return data;
  }
  json event = json::parse(data, nullptr, false);
  // An error event: the replica failed the request (its engine step), not the client.
  if (event.is_discarded() || !event.is_object() || event.contains("error")) return std::nullopt;
  bool last_finish = false;
  const auto choices = event.find("choices");
  if (choices != event.end() && choices->is_array()) {
    for (const json& choice : *choices) {
      if (choice.is_object()) last_finish = note_choice(choice) || last_finish;
    }
  }
  if (last_finish && !kv_transfer_.is_null()) {
    merge_kv_transfer(event, kv_transfer_);
    if (migrations_ == 0) return event.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  if (migrations_ == 0) {
    if (id_.is_null() && event.contains("id")) {
      id_ = event["id"];
      created_ = event.value("created", json());
    }
    return data;  // unchanged: no re-serialization on the common path
  }
  if (!id_.is_null()) event["id"] = id_;
  if (!created_.is_null()) event["created"] = created_;
  return event.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool RelayedStream::note_choice(const json& choice) {
  const auto index = choice.find("index");
  const size_t i = index != choice.end() && index->is_number_unsigned() ? index->get<size_t>() : 0;
  if (i >= choice_finished_.size()) return false;
  const auto ids = choice.find("token_ids");
  if (choice_finished_.size() == 1 && ids != choice.end() && ids->is_array()) {
    for (const json& t : *ids) {
      if (t.is_number_integer()) ids_.push_back(t.get<int32_t>());
    }
  }
  const auto reason = choice.find("finish_reason");
  if (reason == choice.end() || reason->is_null() || choice_finished_[i]) return false;
  choice_finished_[i] = true;
  finished_ =
      std::all_of(choice_finished_.begin(), choice_finished_.end(), [](bool f) { return f; });
  return finished_;
}

std::string RelayedStream::with_kv_transfer(std::string body) const {
  if (kv_transfer_.is_null()) return body;
  json answer = json::parse(body, nullptr, false);
  if (!answer.is_object() || !answer.contains("choices")) return body;  // an error, say
  merge_kv_transfer(answer, kv_transfer_);
  return answer.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string RelayedStream::resume_body(std::string_view original) const {
  if (ids_.empty()) return std::string(original);
  json body = json::parse(original);
  body["resume_token_ids"] = ids_;
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace infergate
