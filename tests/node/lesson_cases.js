// The lesson's decoding code (shared/reference/decoding-lesson.txt: softmax, candidates, sample
// and mulberry32, TypeScript types removed, otherwise as written) run on random cases that
// tests/lesson_cases.h generates with the same integer steps. Prints one line per case:
//   V  hash(softmax bits)  survivors  hash(survivor ids and p bits)  draw
// Usage: node lesson_cases.js CASES SEED
'use strict';

// ---- the lesson's code ----
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function softmax(logits, temperature) {
  const scaled = logits.map((l) => l / temperature);
  const max = Math.max(...scaled);
  const exps = scaled.map((x) => Math.exp(x - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

function candidates(logits, s) {
  if (s.temperature === 0) {
    const best = logits.indexOf(Math.max(...logits));
    return [{ id: best, p: 1 }];
  }
  let c = softmax(logits, s.temperature)
    .map((p, id) => ({ id, p }))
    .sort((a, b) => b.p - a.p);
  if (s.topK !== undefined) c = c.slice(0, s.topK);
  if (s.topP !== undefined) {
    const kept = [];
    let cum = 0;
    for (const x of c) {
      kept.push(x);
      cum += x.p;
      if (cum > s.topP) break;
    }
    c = kept;
  }
  const total = c.reduce((a, x) => a + x.p, 0);
  return c.map((x) => ({ id: x.id, p: x.p / total }));
}

function sample(logits, s, rand) {
  const c = candidates(logits, s);
  let r = rand();
  for (const x of c) {
    r -= x.p;
    if (r <= 0) return x.id;
  }
  return c[c.length - 1].id;
}
// ---- end of the lesson's code ----

// The cases: integer steps only, mirrored in tests/lesson_cases.h.
function words(seed) {
  const next = mulberry32(seed);
  return () => Math.round(next() * 4294967296);  // the 32-bit output itself
}

function makeCase(index, next) {
  // Vocabulary sizes spread over octaves, the large ones rarer (the test stays quick), and the
  // lesson's own case first: V = 200,000 and 128,256.
  const octave = Math.min(next() % 18, next() % 18);
  const drawn = 1 + (next() % Math.min(200000, 2 ** (octave + 1)));
  const vocab = index === 0 ? 200000 : index === 1 ? 128256 : drawn;
  const temperature = next() % 50 === 0 ? 0 : 0.05 + (next() / 4294967296) * 4.95;
  const topK = next() % 3 === 0 ? 1 + (next() % Math.min(vocab, 2 ** (next() % 12))) : undefined;
  const topP = next() % 3 === 0 ? (1 + (next() % 1000)) / 1000 : undefined;
  const kind = next() % 3;
  const logits = new Array(vocab);
  for (let i = 0; i < vocab; i++) {
    const w = next();
    if (kind === 0) logits[i] = (w / 4294967296) * 20 - 10;         // spread like a model's
    else if (kind === 1) logits[i] = (w % 7) - 3;                   // many ties
    else logits[i] = Math.fround((w / 4294967296) * 200 - 100);     // float32, wide: zeros at low T
  }
  const drawSeed = next();
  const s = { temperature };
  if (topK !== undefined) s.topK = topK;
  if (topP !== undefined) s.topP = topP;
  return { logits, s, drawSeed };
}

// FNV-1a over the 32-bit halves of doubles and over integers.
const view = new DataView(new ArrayBuffer(8));
function mixDouble(h, x) {
  view.setFloat64(0, x);
  h = Math.imul(h ^ view.getUint32(0), 16777619) >>> 0;
  return Math.imul(h ^ view.getUint32(4), 16777619) >>> 0;
}
function mixInt(h, i) {
  return Math.imul(h ^ i, 16777619) >>> 0;
}

const count = Number(process.argv[2]);
const next = words(Number(process.argv[3]));
const lines = [];
for (let n = 0; n < count; n++) {
  const { logits, s, drawSeed } = makeCase(n, next);
  let softmaxHash = 2166136261;
  if (s.temperature !== 0)
    for (const p of softmax(logits, s.temperature)) softmaxHash = mixDouble(softmaxHash, p);
  const c = candidates(logits, s);
  let survivorHash = 2166136261;
  for (const x of c) survivorHash = mixDouble(mixInt(survivorHash, x.id), x.p);
  const draw = sample(logits, s, mulberry32(drawSeed));
  lines.push(`${logits.length} ${softmaxHash} ${c.length} ${survivorHash} ${draw}`);
}
process.stdout.write(lines.join('\n') + '\n');
