#!/usr/bin/env python3
"""Writes tests/tokenizer/data/spm_cases.json: a small SentencePiece BPE vocabulary trained here
(identity normalisation, a dummy prefix, spaces kept, byte fallback: the settings of Llama's
tokenizer.model) and the ids SentencePiece itself gives seeded random texts. The tokenizer's
`llama` path (llama.cpp's llm_tokenizer_spm) must give the same ids.

Needs SentencePiece's Python module (Debian: python3-sentencepiece); run from the repository root:
    /usr/bin/python3 tools/gen_spm_cases.py
"""
import io
import json
import random

import sentencepiece as spm

WORDS = ["the", "The", "of", "and", "a", "in", "to", "is", "was", "for", "on", "that", "with",
         "hello", "Hello", "world", "token", "tokens", "model", "models", "logit", "logits",
         "sampling", "temperature", "probability", "2024", "12", "3.14", "100%", "(x)", "don't",
         "it's", "caf\u00e9", "na\u00efve", "\u00fcber", "stra\u00dfe", "\u4f60\u597d", "\u4e16\u754c",
         "\u3053\u3093\u306b\u3061\u306f", "\u043f\u0440\u0438\u0432\u0435\u0442", "\u03b1\u03b2\u03b3",
         "!", "?", ",", ".", ";", ":", "-", "\u2014", "\"", "'"]

ATOMS = WORDS + [" ", " ", " ", "  ", "\n", "\t", "\U0001F600", "\u00a0", "\u2581", "\u0663",
                 "\u00e9", "\u0416", "\ud55c", "\u0301", "\x01", "~", "`", "<", ">", "<s>", "</s>"]


def main():
    rng = random.Random(36)
    corpus = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 20))) for _ in range(3000)]
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(corpus), model_writer=model, model_type="bpe", vocab_size=560,
        byte_fallback=True, normalization_rule_name="identity", add_dummy_prefix=True,
        remove_extra_whitespaces=False, split_digits=True, character_coverage=0.995,
        unk_id=0, bos_id=1, eos_id=2, pad_id=-1, minloglevel=2)
    sp = spm.SentencePieceProcessor(model_proto=model.getvalue())

    tokens, scores, types = [], [], []
    for i in range(sp.get_piece_size()):
        tokens.append(sp.id_to_piece(i))
        scores.append(sp.get_score(i))
        if sp.is_unknown(i):
            types.append(2)
        elif sp.is_control(i):
            types.append(3)
        elif sp.is_unused(i):
            types.append(5)
        elif sp.is_byte(i):
            types.append(6)
        else:
            types.append(1)

    texts = ["".join(rng.choice(ATOMS) for _ in range(rng.randint(0, 25))) for _ in range(500)]
    ids = [sp.encode(t) for t in texts]
    path = "tests/tokenizer/data/spm_cases.json"
    with open(path, "w", encoding="ascii") as f:
        json.dump({"generator": "tools/gen_spm_cases.py", "sentencepiece": spm.__version__,
                   "tokens": tokens, "scores": scores, "types": types, "texts": texts, "ids": ids},
                  f, ensure_ascii=True)
        f.write("\n")
    print(f"{path}: {len(tokens)} tokens, {len(texts)} texts")


if __name__ == "__main__":
    main()
