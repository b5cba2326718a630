import type { Example } from "./types";

export const gpuMemory: Example = {
  id: "gpu-memory",
  title: "GPU memory for a 13B model",
  kind: "estimation",
  question:
    "Roughly how much GPU memory do I need to serve a 13B-parameter model in fp16 with a 4k context and 8 concurrent requests?",
  ranking: ["thorough", "skeptic", "concise"],
  answers: {
    thorough: {
      text: `## Estimate: about 55–60 GB

Two things dominate: the weights and the KV cache.

## 1. Weights

13 × 10⁹ parameters × 2 bytes (fp16) = **26 GB**.

## 2. KV cache

Each token stores a key and a value vector in every layer. For a Llama-2-13B shape (40 layers, hidden size 5120, no grouped-query attention):

- per token: 2 × 40 × 5120 × 2 bytes ≈ **0.8 MB**
- 8 requests × 4,096 tokens = 32,768 tokens
- 32,768 × 0.8 MB ≈ **27 GB**

## 3. Overhead

Activations, the CUDA context and fragmentation: budget **2–4 GB**.

## Total and hardware

26 + 27 + 3 ≈ **56 GB**, so one 80 GB A100 or H100 fits with room to spare; a 48 GB card does not at full context.

## Ways to shrink it

- A model with grouped-query attention stores far fewer KV heads, cutting the cache several-fold.
- An 8-bit KV cache halves the 27 GB.
- 8-bit weights take 13 GB, 4-bit about 7 GB.

Servers such as vLLM reserve most of the card up front (\`gpu_memory_utilization\`), so expect the reported usage to be higher than this estimate.`,
      strengths: [
        "The arithmetic is right, and it shows every step: 26 GB of weights plus about 27 GB of KV cache.",
        "It names the model shape it assumes, since the KV cache depends on it.",
        "It turns the number into hardware and lists concrete ways to cut it.",
      ],
      weaknesses: [],
      scores: { correctness: 9, completeness: 9, clarity: 9, helpfulness: 9, safety: 9, overall: 9 },
    },
    skeptic: {
      text: `The weights are the easy part: 13B parameters × 2 bytes is about 26 GB. The KV cache is where estimates go wrong, because it grows with context × concurrent requests and depends on the architecture (layers, hidden size, whether it uses grouped-query attention).

For a 13B model without grouped-query attention, 8 full 4k contexts can add roughly as much again as the weights. So plan for **somewhere between 40 and 80 GB**, and measure with your serving stack at your real context lengths before buying hardware: most requests won't use the full 4k, and the server's own reservations vary.`,
      strengths: [
        "It gets the weights right and correctly identifies the KV cache as the part that grows with load.",
        "Its advice to measure with the real serving stack is sound.",
      ],
      weaknesses: [
        "A 40–80 GB range is too wide to choose hardware from, when the cache is easy to compute.",
        "It never shows the KV-cache arithmetic it alludes to.",
      ],
      scores: { correctness: 8, completeness: 6, clarity: 8, helpfulness: 6, safety: 9, overall: 6.9 },
    },
    concise: {
      text: `About **26 GB**: 13B parameters × 2 bytes in fp16. A 32 GB or 40 GB card is enough.`,
      strengths: ["The weight size is right."],
      weaknesses: [
        "It leaves out the KV cache, about 27 GB for 8 requests at 4k tokens, so it undersizes the GPU by half.",
        "The 32 GB card it recommends would run out of memory under the stated load.",
      ],
      scores: { correctness: 3, completeness: 2, clarity: 9, helpfulness: 2, safety: 6, overall: 3.4 },
    },
  },
  synthesis: `**About 55–60 GB**, so one 80 GB A100 or H100.

- **Weights:** 13 × 10⁹ parameters × 2 bytes = 26 GB.
- **KV cache:** for a Llama-2-13B shape (40 layers, hidden size 5120), each token stores 2 × 40 × 5120 × 2 bytes ≈ 0.8 MB. 8 requests × 4,096 tokens = 32,768 tokens ≈ 27 GB.
- **Overhead:** activations, CUDA context and fragmentation, about 2–4 GB.

The KV cache is the part that is easy to forget, and it is as large as the weights here: a 32 or 40 GB card runs out of memory under this load.

To fit a smaller card, use a model with grouped-query attention (a much smaller cache), an 8-bit KV cache (half the cache), or 8-bit or 4-bit weights (13 GB or about 7 GB). Then measure with your serving stack: servers like vLLM reserve most of the card up front, and real requests rarely fill the whole 4k context.`,
};
