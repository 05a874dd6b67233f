// GPT-2's pre-tokenizer: splits text into the words BPE merges within, as the regex
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// does, hand-written over UTF-8 like llama.cpp's unicode_regex_split_custom_gpt2. The letter,
// number and whitespace classes are Unicode's (unicode_class.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace infergate {

// The words of `text`, in order; their concatenation is `text`.
std::vector<std::string> gpt2_pre_tokenize(std::string_view text);

}  // namespace infergate
