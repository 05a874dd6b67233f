"""The training text: English prose and code that Debian packages ship, cut into documents of
at most ~8 KB at blank lines; every 20th document (in a fixed order) is held out for evaluation.

Sources (package: files, licence):
- python3.11-doc: the Python documentation's reStructuredText sources (technical English with
  code examples), PSF License;
- libpython3.11-stdlib: the standard library's top-level modules (Python code), PSF License;
- fortunes: the fortune-mod databases (quotations, jokes, short prose), BSD-style and public domain;
- jargon-text: the Jargon File 4.4.7 (hacker-culture glossary prose), public domain.
"""
import glob
import gzip
import hashlib
import os
import unicodedata

SOURCES = [
    ("python-docs", "/usr/share/doc/python3.11/html/_sources/**/*.rst.txt"),
    ("python-code", "/usr/lib/python3.11/*.py"),
    ("fortunes", "/usr/share/games/fortunes/*"),
    ("jargon", "/usr/share/doc/jargon-text/jargon.txt.gz"),
]
HELD_OUT_EVERY = 20
MAX_DOCUMENT_BYTES = 8192


def read_text(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        raw = f.read()
    text = raw.decode("utf-8", errors="replace").replace("\r\n", "\n")
    return unicodedata.normalize("NFC", text)


def documents_of(text):
    """`text` cut at blank lines into pieces of at most MAX_DOCUMENT_BYTES (a longer paragraph
    is one piece)."""
    docs, current = [], ""
    for paragraph in text.split("\n\n"):
        if current and len(current) + len(paragraph) + 2 > MAX_DOCUMENT_BYTES:
            docs.append(current)
            current = ""
        current = current + "\n\n" + paragraph if current else paragraph
    if current.strip():
        docs.append(current)
    return docs


def files():
    out = []
    for name, pattern in SOURCES:
        paths = sorted(p for p in glob.glob(pattern, recursive=True)
                       if os.path.isfile(p) and not p.endswith(".dat") and not os.path.islink(p))
        if not paths:
            raise SystemExit(f"corpus: no files for {name} ({pattern}): is its package installed?")
        out.extend((name, p) for p in paths)
    return out


def labelled_documents():
    """Every document as (source name, text, held out?), in the fixed order split() uses, and the
    manifest: sources, document counts, bytes, the SHA-256 of every path and text read."""
    docs = []
    digest = hashlib.sha256()
    sizes = {}
    for name, path in files():
        text = read_text(path)
        digest.update(path.encode() + b"\0" + text.encode("utf-8"))
        sizes[name] = sizes.get(name, 0) + len(text.encode("utf-8"))
        for doc in documents_of(text):
            docs.append((name, doc, len(docs) % HELD_OUT_EVERY == HELD_OUT_EVERY - 1))
    held_out = sum(1 for _, _, held in docs if held)
    manifest = {"sources": {n: p for n, p in SOURCES}, "bytes": sizes,
                "documents": {"train": len(docs) - held_out, "held_out": held_out},
                "corpus_sha256": digest.hexdigest()}
    return docs, manifest


def split():
    """(training documents, held-out documents, the manifest)."""
    docs, manifest = labelled_documents()
    train = [doc for _, doc, held in docs if not held]
    held_out = [doc for _, doc, held in docs if held]
    return train, held_out, manifest
