"""bench_transformer's F32 workload in PyTorch: random weights in SmolLM2-135M's shape (llama:
30 layers, n_embd 576, 9 heads of 64, 3 KV heads, n_ff 1536, vocabulary 49,152, tied output),
a KV cache, decode steps after a 64-token prompt (the cache cut back to it every 192 steps, as
in the C++ benchmark) and a 128-token prefill. The forward pass is the llama one (RMSNorm,
RoPE on adjacent pairs, grouped-query attention, SwiGLU), written with torch's own matrix
products. Prints JSON: median seconds of a decode step and of the prefill, torch's version and
thread count. Timing only: nothing here is compared with LogitLab's logits."""
import argparse
import json
import statistics
import time

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--steps", type=int, default=64, help="decode steps per repetition")
parser.add_argument("--repetitions", type=int, default=5)
args = parser.parse_args()
torch.set_num_threads(args.threads)
torch.manual_seed(0)

LAYERS, D, HEADS, KV_HEADS, FF, VOCAB, HEAD = 30, 576, 9, 3, 1536, 49152, 64
ROPE_BASE, EPS = 100000.0, 1e-5


def matrix(rows, cols):
    return (torch.rand(rows, cols) * 2 - 1) * (3.0 / cols) ** 0.5


embedding = torch.rand(VOCAB, D) * 2 - 1
layers = [{
    "attn_norm": torch.ones(D), "q": matrix(D, D), "k": matrix(KV_HEADS * HEAD, D),
    "v": matrix(KV_HEADS * HEAD, D), "o": matrix(D, D), "ffn_norm": torch.ones(D),
    "gate": matrix(FF, D), "up": matrix(FF, D), "down": matrix(D, FF),
} for _ in range(LAYERS)]
output_norm = torch.ones(D)
inverse_frequencies = 1.0 / ROPE_BASE ** (torch.arange(0, HEAD, 2, dtype=torch.float32) / HEAD)


def rms_norm(x, w):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w


def rope(x, positions):  # x: [T, heads, HEAD]; pairs (2i, 2i + 1) rotate together
    angles = positions[:, None].float() * inverse_frequencies[None, :]
    cos, sin = angles.cos()[:, None, :], angles.sin()[:, None, :]
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), -1).flatten(-2)


class Model:
    def __init__(self):
        self.keys = [None] * LAYERS
        self.values = [None] * LAYERS
        self.position = 0

    def truncate(self, n):
        self.keys = [k[:n] for k in self.keys]
        self.values = [v[:n] for v in self.values]
        self.position = n

    @torch.no_grad()
    def evaluate(self, tokens):
        t = len(tokens)
        x = embedding[torch.tensor(tokens)]
        positions = torch.arange(self.position, self.position + t)
        total = self.position + t
        # Causal mask over the whole cache: query i sees keys up to its own position.
        mask = torch.arange(total)[None, :] > positions[:, None]
        for i, w in enumerate(layers):
            h = rms_norm(x, w["attn_norm"])
            q = rope((h @ w["q"].T).view(t, HEADS, HEAD), positions)
            k = rope((h @ w["k"].T).view(t, KV_HEADS, HEAD), positions)
            v = (h @ w["v"].T).view(t, KV_HEADS, HEAD)
            self.keys[i] = k if self.keys[i] is None else torch.cat((self.keys[i], k))
            self.values[i] = v if self.values[i] is None else torch.cat((self.values[i], v))
            keys = self.keys[i].repeat_interleave(HEADS // KV_HEADS, dim=1).transpose(0, 1)
            values = self.values[i].repeat_interleave(HEADS // KV_HEADS, dim=1).transpose(0, 1)
            scores = (q.transpose(0, 1) @ keys.transpose(1, 2)) / HEAD ** 0.5
            scores = scores.masked_fill(mask[None], float("-inf"))
            attended = (torch.softmax(scores, -1) @ values).transpose(0, 1).reshape(t, D)
            x = x + attended @ w["o"].T
            h = rms_norm(x, w["ffn_norm"])
            x = x + (torch.nn.functional.silu(h @ w["gate"].T) * (h @ w["up"].T)) @ w["down"].T
        self.position = total
        return rms_norm(x[-1:], output_norm) @ embedding.T


def prompt(n):
    return [(i * 7919 + 13) % VOCAB for i in range(n)]


model = Model()
model.evaluate(prompt(64))
token = 100
step_times = []
for _ in range(args.repetitions):
    start = time.perf_counter()
    for _ in range(args.steps):
        if model.position == 256:
            model.truncate(64)
        logits = model.evaluate([token])
        token = (token * 31 + 7) % VOCAB
    step_times.append((time.perf_counter() - start) / args.steps)

prefill_times = []
for _ in range(3):
    fresh = Model()
    start = time.perf_counter()
    fresh.evaluate(prompt(128))
    prefill_times.append(time.perf_counter() - start)

print(json.dumps({"torch": torch.__version__, "threads": torch.get_num_threads(),
                  "decode_step_seconds": statistics.median(step_times),
                  "prefill128_seconds": statistics.median(prefill_times)}))
