"""Byte-level BPE, trained as GPT-2's tokenizer was and written as Hugging Face's tokenizer.json.

Text is split by GPT-2's pattern (the `regex` module, for \\p{L}), each piece's UTF-8 bytes are
spelled with GPT-2's printable byte alphabet, and merges are learned greedily: the most frequent
adjacent pair of symbols, ties broken by the pair itself (lexicographically smallest), so the
same corpus always gives the same merges. Pair counts are kept up to date incrementally, touching
only the words that contain the merged pair.
"""
import collections
import heapq
import json

import regex

GPT2_SPLIT = (r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+")


def byte_alphabet():
    """GPT-2's bytes_to_unicode: printable bytes stand for themselves, the rest from U+0100 on."""
    printable = (list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) +
                 list(range(0xAE, 0x100)))
    chars, extra = {}, 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return chars


def word_counts(texts):
    alphabet = byte_alphabet()
    pattern = regex.compile(GPT2_SPLIT)
    counts = collections.Counter()
    for text in texts:
        for piece in pattern.findall(text):
            counts["".join(alphabet[b] for b in piece.encode("utf-8"))] += 1
    return counts


def train(texts, num_merges):
    """The merges, in order, as (left, right) pairs."""
    counts = word_counts(texts)
    words = [list(w) for w in sorted(counts)]
    freq = [counts[w] for w in sorted(counts)]
    pairs = collections.Counter()
    where = collections.defaultdict(set)
    for i, symbols in enumerate(words):
        for pair in zip(symbols, symbols[1:]):
            pairs[pair] += freq[i]
            where[pair].add(i)
    heap = [(-n, pair) for pair, n in pairs.items()]
    heapq.heapify(heap)
    merges = []
    while len(merges) < num_merges and heap:
        n, pair = heapq.heappop(heap)
        if pairs.get(pair, 0) != -n or n == 0:
            continue  # a stale entry: the count changed since it was pushed
        merges.append(pair)
        merged = pair[0] + pair[1]
        changed = set()
        for i in sorted(where.pop(pair, ())):
            symbols = words[i]
            for old in zip(symbols, symbols[1:]):
                pairs[old] -= freq[i]
                changed.add(old)
            out, k = [], 0
            while k < len(symbols):
                if k + 1 < len(symbols) and (symbols[k], symbols[k + 1]) == pair:
                    out.append(merged)
                    k += 2
                else:
                    out.append(symbols[k])
                    k += 1
            words[i] = out
            for new in zip(out, out[1:]):
                pairs[new] += freq[i]
                where[new].add(i)
                changed.add(new)
        del pairs[pair]
        for p in sorted(changed):
            if p != pair and pairs.get(p, 0) > 0:
                heapq.heappush(heap, (-pairs[p], p))
    return merges


def tokenizer_json(merges, special_tokens, bos):
    """tokenizer.json: the 256 byte symbols, one token per merge, then the special tokens; BOS
    added before every text by the post-processor."""
    alphabet = byte_alphabet()
    vocab = {alphabet[b]: b for b in range(256)}
    for left, right in merges:
        vocab[left + right] = len(vocab)
    added = []
    for content in special_tokens:
        added.append({"id": len(vocab) + len(added), "content": content, "single_word": False,
                      "lstrip": False, "rstrip": False, "normalized": False, "special": True})
    bos_id = next(t["id"] for t in added if t["content"] == bos)
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
                          "use_regex": True},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": bos, "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": bos, "type_id": 0}},
                     {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": bos, "type_id": 1}},
                     {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {bos: {"id": bos, "ids": [bos_id], "tokens": [bos]}},
        },
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                    "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None,
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": [f"{a} {b}" for a, b in merges]},
    }


def encoder(tokenizer):
    """A plain encoder of the trained tokenizer, for making the training data (special tokens in
    the text are not looked for: the corpus is plain text)."""
    alphabet = byte_alphabet()
    vocab = tokenizer["model"]["vocab"]
    ranks = {tuple(m.split(" ")): r for r, m in enumerate(tokenizer["model"]["merges"])}
    pattern = regex.compile(GPT2_SPLIT)
    cache = {}

    def bpe(word):
        symbols = list(word)
        while len(symbols) > 1:
            best = min(range(len(symbols) - 1),
                       key=lambda k: ranks.get((symbols[k], symbols[k + 1]), 1 << 30))
            if (symbols[best], symbols[best + 1]) not in ranks:
                break
            symbols[best:best + 2] = [symbols[best] + symbols[best + 1]]
        return [vocab[s] for s in symbols]

    def encode(text):
        ids = []
        for piece in pattern.findall(text):
            word = "".join(alphabet[b] for b in piece.encode("utf-8"))
            if word not in cache:
                cache[word] = bpe(word)
            ids.extend(cache[word])
        return ids

    return encode


def write(path, data):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1, sort_keys=False)
        f.write("\n")
