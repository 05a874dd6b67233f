// What a client has received of one streamed answer, across the replicas that produced it: the
// router migrates a stream whose replica fails mid-way by asking another replica to resume from
// the token ids already relayed (server's `resume_token_ids`), so the client's stream goes on
// with no token lost or repeated, under the first replica's id and created time.
#pragma once

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace infergate {

class RelayedStream {
 public:
  // `choices`: the request's `n`. Token ids are noted for one choice only (several cannot be
  // resumed); the answer is finished when every choice has its finish_reason.
  explicit RelayedStream(int choices = 1) : choice_finished_(size_t(std::max(choices, 1))) {}

  bool started() const { return started_; }
  void start() { started_ = true; }
  const std::vector<int32_t>& ids() const { return ids_; }
  bool finished() const { return finished_; }  // every finish_reason, or [DONE], went out
  bool done_sent() const { return done_sent_; }
  int migrations() const { return migrations_; }

  // One event of the current replica's stream, as it goes to the client: its token ids noted,
  // and after a migration the first replica's id and created put back. nullopt for an event
  // that is neither [DONE] nor a JSON object, or is an error event (a broken replica).
  std::optional<std::string> relay(const std::string& data);

  // The current replica failed mid-stream at `now_ns` (common/util/clock.h); the next resumes.
  void migrating(int64_t now_ns) {
    ++migrations_;
    broke_ns_ = now_ns;
  }
  // When the last replica failed, while no other has relayed since (else 0).
  int64_t broke_ns() const { return broke_ns_; }
  void resumed() { broke_ns_ = 0; }
  // The body that asks a replica to go on from what was relayed (the original when nothing
  // was). Throws nlohmann::json::exception for a body that is not JSON (checked before).
  std::string resume_body(std::string_view original) const;

  // Disaggregated: the router's part of the request's `kv_transfer` record (its prefill phase),
  // merged into the answer's last chunk beside the decode worker's part.
  void add_to_last_chunk(nlohmann::json kv_transfer) { kv_transfer_ = std::move(kv_transfer); }
  // Merges it into a whole (non-streamed) answer's body, a JSON object; others unchanged.
  std::string with_kv_transfer(std::string body) const;

 private:
  bool started_ = false;
  bool finished_ = false;
  bool done_sent_ = false;
  int migrations_ = 0;
  int64_t broke_ns_ = 0;
  // Notes one choice's tokens and finish; true when it was the last choice to finish.
  bool note_choice(const nlohmann::json& choice);

  std::vector<bool> choice_finished_;
  std::vector<int32_t> ids_;
  nlohmann::json id_, created_;  // the first replica's
  nlohmann::json kv_transfer_;   // null unless disaggregated
};

}  // namespace infergate
