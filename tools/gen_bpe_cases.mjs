// Writes tests/tokenizer/data/bpe_cases.json: a small byte-level BPE vocabulary (merges learned
// here from a seeded corpus) and the ids Hugging Face's tokenizers.js gives seeded random texts
// under each pre-tokenizer: the regexes of llama.cpp's llama-vocab.cpp as Split steps followed
// by ByteLevel, ignore_merges for llama3. The tokenizer's gpt2 path must give the same ids.
//
// Needs @huggingface/tokenizers (npm install @huggingface/tokenizers@0.2.0 in any folder); run
// from the repository root:
//   TOKENIZERS_JS=<folder>/node_modules/@huggingface/tokenizers/dist/tokenizers.mjs node tools/gen_bpe_cases.mjs
import { writeFileSync } from "node:fs";

const { Tokenizer } = await import(process.env.TOKENIZERS_JS ?? "@huggingface/tokenizers");

// mulberry32, seeded
let seed = 36;
const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

// GPT-2's bytes_to_unicode
const byteChar = [];
{
    let next = 256;
    for (let b = 0; b < 256; ++b) {
        const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
        byteChar.push(String.fromCodePoint(printable ? b : next++));
    }
}
const encoder = new TextEncoder();
const byteLevel = (text) => Array.from(encoder.encode(text), (b) => byteChar[b]).join("");

const GPT2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";
const CONTRACTIONS = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const LLAMA3 = CONTRACTIONS + "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const QWEN2 = CONTRACTIONS + "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const PRES = {
    "gpt-2": { regexes: [GPT2], ignoreMerges: false },
    "llama-bpe": { regexes: [LLAMA3], ignoreMerges: true },
    "qwen2": { regexes: [QWEN2], ignoreMerges: false },
    "smollm": { regexes: ["\\p{N}", GPT2], ignoreMerges: false },
    "default": { regexes: ["[\\p{P}\\$\\+<=>\\^~\\|]+", GPT2, "\\p{N}+", "[0-9][0-9][0-9]"], ignoreMerges: false },
};

const WORDS = ["the", "The", "of", "and", "a", "in", "to", "is", "was", "for", "on", "that", "with", "hello",
    "Hello", "world", "token", "tokens", "model", "models", "logit", "logits", "sampling", "temperature",
    "probability", "2024", "12", "3.14", "100%", "(x)", "don't", "it's", "I'M", "we'll", "caf\u00e9",
    "na\u00efve", "\u00fcber", "stra\u00dfe", "\u4f60\u597d", "\u4e16\u754c", "\u3053\u3093\u306b\u3061\u306f",
    "\u043f\u0440\u0438\u0432\u0435\u0442", "\u03b1\u03b2\u03b3", "!", "?", ",", ".", "...", ";", ":", "-",
    "\u2014", "\"", "'", "\n", "\n\n", "    ", "\t", "{", "}", "()", "=>", "==", "x+y"];
const ATOMS = WORDS.concat([" ", " ", " ", "  ", "\r\n", "\u{1F600}", "\u00a0", "\u2581", "\u0663", "\u00e9",
    "\u0416", "\ud55c", "\u0301", "\x01", "~", "`", "<", ">", "123456", "\u00b2", "\u3000", "'S", "'Ll"]);

// Learn merges: pairs counted inside GPT-2 words of the corpus, the most frequent joined first.
const corpus = [];
for (let i = 0; i < 1500; ++i) {
    const n = 3 + Math.floor(random() * 15);
    corpus.push(Array.from({ length: n }, () => pick(WORDS)).join(" "));
}
const wordCounts = new Map();
for (const line of corpus) {
    for (const m of line.matchAll(new RegExp(GPT2, "gu"))) {
        const w = byteLevel(m[0]);
        wordCounts.set(w, (wordCounts.get(w) ?? 0) + 1);
    }
}
let words = Array.from(wordCounts, ([w, c]) => ({ symbols: Array.from(w), count: c }));
const merges = [];
const vocab = byteChar.slice();
const inVocab = new Set(vocab);
for (let step = 0; step < 400; ++step) {
    const pairs = new Map();
    for (const w of words) {
        for (let i = 0; i + 1 < w.symbols.length; ++i) {
            const key = w.symbols[i] + " " + w.symbols[i + 1];
            pairs.set(key, (pairs.get(key) ?? 0) + w.count);
        }
    }
    let best = null;
    for (const [key, count] of pairs) {
        if (best === null || count > best[1] || (count === best[1] && key < best[0])) best = [key, count];
    }
    if (best === null || best[1] < 2) break;
    const [left, right] = best[0].split(" ");
    merges.push(best[0]);
    if (!inVocab.has(left + right)) {
        inVocab.add(left + right);
        vocab.push(left + right);
    }
    for (const w of words) {
        const out = [];
        for (let i = 0; i < w.symbols.length; ++i) {
            if (i + 1 < w.symbols.length && w.symbols[i] === left && w.symbols[i + 1] === right) {
                out.push(left + right);
                ++i;
            } else {
                out.push(w.symbols[i]);
            }
        }
        w.symbols = out;
    }
}
// Whole words as tokens with no merges leading to them, for llama3's ignore_merges.
for (const w of ["~~", "<>", "``", "~`", "><", "\u0120~", "\u0120<", "\u00c2\u00b2"]) {
    if (!inVocab.has(w)) {
        inVocab.add(w);
        vocab.push(w);
    }
}

const texts = [];
for (let i = 0; i < 400; ++i) {
    const n = Math.floor(random() * 25);
    texts.push(Array.from({ length: n }, () => pick(ATOMS)).join(""));
}

const ids = {};
for (const [name, pre] of Object.entries(PRES)) {
    const json = {
        version: "1.0",
        truncation: null,
        padding: null,
        added_tokens: [],
        normalizer: null,
        pre_tokenizer: {
            type: "Sequence",
            pretokenizers: pre.regexes.map((r) => ({ type: "Split", pattern: { Regex: r }, behavior: "Isolated", invert: false }))
                .concat([{ type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false }]),
        },
        post_processor: null,
        decoder: { type: "ByteLevel", add_prefix_space: false, trim_offsets: false, use_regex: false },
        model: {
            type: "BPE", dropout: null, unk_token: null, continuing_subword_prefix: null, end_of_word_suffix: null,
            fuse_unk: false, byte_fallback: false, ignore_merges: pre.ignoreMerges,
            vocab: Object.fromEntries(vocab.map((t, i) => [t, i])), merges,
        },
    };
    const tokenizer = new Tokenizer(json, {});
    ids[name] = texts.map((t) => tokenizer.encode(t, { add_special_tokens: false }).ids);
}

const path = "tests/tokenizer/data/bpe_cases.json";
writeFileSync(path, JSON.stringify({ generator: "tools/gen_bpe_cases.mjs", reference: "@huggingface/tokenizers 0.2.0",
    tokens: vocab, merges, texts, ids }, (k, v) => v) .replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")) + "\n");
console.log(`${path}: ${vocab.length} tokens, ${merges.length} merges, ${texts.length} texts`);
