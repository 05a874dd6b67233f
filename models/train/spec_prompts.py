"""The speculative-decoding workloads' prompts, cut from the held-out documents (never trained on):
16 of Python code (libpython3.11-stdlib) and 16 of prose (8 Jargon File entries, 8 fortunes; mostly letters, so no tables), each
the start of a document cut to at most PROMPT_BYTES at a line or word end, asking for
OUTPUT_TOKENS tokens, so prompt and answer stay within the 256 positions the models trained on.

    /usr/bin/python3 models/train/spec_prompts.py OUT_DIR
        writes OUT_DIR/spec-code.jsonl and OUT_DIR/spec-prose.jsonl (the `text` format of
        bench/dataset/jsonl_dataset.h); the repository's copies are in workloads/text/
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

PROMPT_BYTES = 400
OUTPUT_TOKENS = 128
PER_FILE = 16


def cut(text):
    """The text's start, at most PROMPT_BYTES, ending at the last line end (else word end)."""
    head = text.encode("utf-8")[:PROMPT_BYTES].decode("utf-8", errors="ignore")
    end = head.rfind("\n")
    if end < PROMPT_BYTES // 2:
        end = head.rfind(" ")
    return head[:end + 1] if end > 0 else head


def is_prose(text):
    """Mostly letters and spaces: leaves out the Jargon File's tables drawn in box characters."""
    return sum(c.isascii() and (c.isalpha() or c.isspace()) for c in text) >= 0.85 * len(text)


def write(path, prompts):
    with open(path, "w", encoding="utf-8") as f:
        for prompt in prompts:
            f.write(json.dumps({"prompt": prompt, "output_tokens": OUTPUT_TOKENS},
                               ensure_ascii=False) + "\n")


def main():
    docs, _ = corpus.labelled_documents()
    held = {}
    for name, doc, is_held in docs:
        if is_held and doc.strip():
            held.setdefault(name, []).append(doc.strip())
    code = [cut(d) for d in held["python-code"][:PER_FILE]]
    prose = []
    for source in ("jargon", "fortunes"):
        prose += [p for p in map(cut, held[source]) if is_prose(p)][:PER_FILE // 2]
    os.makedirs(sys.argv[1], exist_ok=True)
    write(os.path.join(sys.argv[1], "spec-code.jsonl"), code)
    write(os.path.join(sys.argv[1], "spec-prose.jsonl"), prose)


if __name__ == "__main__":
    main()
