#include "engine/grammar/grammar_matcher.h"

#include <algorithm>
#include <string>

namespace infergate {

namespace {

using Kind = GrammarElement::Kind;

void sort_unique(std::vector<std::vector<int32_t>>& stacks) {
  std::sort(stacks.begin(), stacks.end());
  stacks.erase(std::unique(stacks.begin(), stacks.end()), stacks.end());
}

}  // namespace

GrammarMatcher::GrammarMatcher(std::shared_ptr<const Grammar> grammar)
    : grammar_(std::move(grammar)) {
  for (int32_t start : grammar_->alternatives[size_t(grammar_->root)]) expand({start}, stacks_);
  sort_unique(stacks_);
}

void GrammarMatcher::expand(Stack stack, std::vector<Stack>& out) const {
  const std::vector<GrammarElement>& elements = grammar_->elements;
  // The element at the top may be an alternative's end: the rule matched, go on below it.
  while (!stack.empty() && elements[size_t(stack.back())].kind == Kind::kEnd) stack.pop_back();
  if (stack.empty() || elements[size_t(stack.back())].kind == Kind::kBytes) {
    if (out.size() >= kMaxStacks) {
      throw GrammarError("the grammar is too ambiguous: more than " + std::to_string(kMaxStacks) +
                         " parses are alive at once");
    }
    out.push_back(std::move(stack));
    return;
  }
  const int32_t at = stack.back();
  const int32_t rule = elements[size_t(at)].rule;
  stack.back() = at + 1;  // where this alternative goes on once the rule has matched
  // A reference that ends its alternative leaves nothing to come back to (a tail call): without
  // this, right recursion (x ::= "a" x | "") would grow the stack by a position per byte and
  // keep every split of a run apart.
  while (!stack.empty() && elements[size_t(stack.back())].kind == Kind::kEnd) stack.pop_back();
  for (int32_t start : grammar_->alternatives[size_t(rule)]) {
    Stack next = stack;
    next.push_back(start);
    expand(std::move(next), out);
  }
}

std::vector<GrammarMatcher::Stack> GrammarMatcher::step(uint8_t byte) const {
  std::vector<Stack> next;
  for (const Stack& s : stacks_) {
    if (s.empty() || !grammar_->elements[size_t(s.back())].bytes.test(byte)) continue;
    Stack moved = s;
    ++moved.back();
    expand(std::move(moved), next);
  }
  sort_unique(next);
  return next;
}

bool GrammarMatcher::accept(uint8_t byte) {
  std::vector<Stack> next = step(byte);
  if (next.empty()) return false;
  stacks_ = std::move(next);
  return true;
}

std::optional<GrammarMatcher> GrammarMatcher::after(uint8_t byte) const {
  std::vector<Stack> next = step(byte);
  if (next.empty()) return std::nullopt;
  GrammarMatcher moved(grammar_, std::move(next));
  return moved;
}

bool GrammarMatcher::accept(std::string_view bytes) {
  GrammarMatcher copy = *this;
  for (char c : bytes) {
    if (!copy.accept(static_cast<uint8_t>(c))) return false;
  }
  *this = std::move(copy);
  return true;
}

bool GrammarMatcher::complete() const {
  return std::any_of(stacks_.begin(), stacks_.end(), [](const Stack& s) { return s.empty(); });
}

bool GrammarMatcher::can_continue() const {
  return std::any_of(stacks_.begin(), stacks_.end(), [](const Stack& s) { return !s.empty(); });
}

std::bitset<256> GrammarMatcher::next_bytes() const {
  std::bitset<256> bytes;
  for (const Stack& s : stacks_) {
    if (!s.empty()) bytes |= grammar_->elements[size_t(s.back())].bytes;
  }
  return bytes;
}

std::string GrammarMatcher::state_key() const {
  std::string key;
  for (const Stack& s : stacks_) {
    key.append(reinterpret_cast<const char*>(s.data()), s.size() * sizeof(int32_t));
    key.push_back('\xff');  // no int32 position ends with these four bytes
    key.append(3, '\xff');
  }
  return key;
}

}  // namespace infergate
