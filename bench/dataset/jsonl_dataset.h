// Requests read from a JSON Lines file: one JSON object per line, in one of three formats.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/dataset/dataset.h"
#include "bench/dataset/dataset_tokenizer.h"

namespace infergate {

// `path` as given when absolute or when base_dir is empty, else base_dir/path.
std::string resolve_dataset_path(const std::string& path, const std::string& base_dir);

// Formats (blank lines are skipped; every other line must be one JSON object):
//   tokens    {"prompt_tokens": [1, 2, 3], "output_tokens": 64}: ids used verbatim, each in
//             [0, vocab_size)
//   text      {"prompt": "...", "output_tokens": 64}: tokenized by `text` (BOS first when its
//             add_bos), or, when null, byte by byte over synthetic_vocabulary(vocab_size), BOS
//             first; a prompt that gives no token at all is refused
//   sharegpt  {"conversations": [{"from": "human", "value": "..."}, {"from": "gpt", ...}]}:
//             prompt = the first "human" turn (tokenized as text), max_tokens = the token count
//             of the first "gpt" turn after it, as vllm bench serve does. Records with fewer
//             than two turns, without a human turn followed by a gpt turn, or with an empty
//             reply are skipped.
// Records are used in file order (no shuffling: the file is the sample); with fewer records
// than `count`, they repeat from the top. Reading stops once `count` records are in hand, so
// lines after them are not checked.
// Throws DatasetError naming the file and line for unreadable files, bad JSON, missing fields,
// wrong types and out-of-range ids, and naming the file when no record is usable;
// std::invalid_argument for an unknown format.
std::vector<BenchRequest> load_jsonl_dataset(const std::string& file, const std::string& format,
                                             int count, int32_t vocab_size,
                                             const DatasetTokenizer* text = nullptr);

}  // namespace infergate
