#!/usr/bin/env python3
"""Writes tests/tokenizer/data/pretokenizer_cases.json: seeded random texts and how each
pre-tokenizer splits them, computed with the `regex` module from the regexes llama.cpp lists in
llama-vocab.cpp (its case-explicit contractions, one regex after another, text between matches
kept as pieces as unicode_regex_split does). The tokenizer's scanners must give the same words.

Needs the third-party `regex` module (pip install regex); run from the repository root:
    python3 tools/gen_pretokenizer_cases.py
The texts use characters assigned since Unicode 6 or earlier, so the regex module's Unicode
version and the tokenizer's table (Unicode 14) agree on them.
"""
import json
import random

import regex

GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
CONTRACTIONS = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
LLAMA3 = CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
QWEN2 = CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"

PIPELINES = {
    "gpt-2": [GPT2],
    "llama-bpe": [LLAMA3],
    "qwen2": [QWEN2],
    "smollm": [r"\p{N}", GPT2],
    "default": [r"[\p{P}\$\+<=>\^~\|]+", GPT2, r"\p{N}+", r"[0-9][0-9][0-9]"],
}

ATOMS = [
    "a", "b", "Z", "e", "s", "t", "hello", "World", "0", "7", "42", "2024", "123456",
    " ", " ", "  ", "   ", "\n", "\n\n", "\r\n", "\t", "\x0b", "\x0c", " \n", "\n ",
    ".", ",", "!", "?", "...", "'", "'s", "'S", "'t", "'re", "'VE", "'m", "'ll", "'D", "'x", "\u017fs",
    "(", ")", "$", "+", "<", "=", ">", "^", "~", "|", "`", "_", "-", "@", "#", "%", "&", "*", "/", "\\",
    "\u00e9", "\u00fc", "\u00df", "\u03b1\u03b2", "\u0416", "\u4f60\u597d", "\ud55c", "\u05d0", "\u0627",
    "\u0663", "\u00b2", "\u00bd", "\u2167", "\uff10", "\u0e51",
    "\u00a1", "\u00bf", "\u00ab", "\u00bb", "\u2014", "\u3002", "\u3001", "\u2026",
    "\u20ac", "\u00a9", "\u2211", "\U0001F600", "\U0001F44D",
    "\u0301", "\u0308", "\u093f",
    "\u00a0", "\u2028", "\u3000", "\u1680", "\u2009", "\u0085", "\u200b", "\ufeff",
    "\x01", "\x7f", "\u0378", "\ue000",
]


def split(text, pipeline):
    pieces = [text] if text else []
    for pattern in pipeline:
        compiled = regex.compile(pattern)
        out = []
        for piece in pieces:
            pos = 0
            for m in compiled.finditer(piece):
                if m.start() > pos:
                    out.append(piece[pos:m.start()])
                out.append(m.group())
                pos = m.end()
            if pos < len(piece):
                out.append(piece[pos:])
        pieces = out
    return pieces


def main():
    rng = random.Random(36)
    texts = []
    for _ in range(400):
        texts.append("".join(rng.choice(ATOMS) for _ in range(rng.randint(0, 30))))
    splits = {name: [split(t, pipeline) for t in texts] for name, pipeline in PIPELINES.items()}
    for name in splits:
        for t, words in zip(texts, splits[name]):
            assert "".join(words) == t
    path = "tests/tokenizer/data/pretokenizer_cases.json"
    with open(path, "w", encoding="ascii") as f:
        json.dump({"generator": "tools/gen_pretokenizer_cases.py", "regex": regex.__version__,
                   "texts": texts, "splits": splits}, f, ensure_ascii=True, indent=None)
        f.write("\n")
    print(f"{path}: {len(texts)} texts x {len(splits)} pre-tokenizers")


if __name__ == "__main__":
    main()
