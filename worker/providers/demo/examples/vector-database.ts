import type { Example } from "./types";

export const vectorDatabase: Example = {
  id: "vector-database",
  title: "Vector DB for 50M embeddings",
  kind: "choice",
  question:
    "Pick a vector database for 50M embeddings (768 dimensions) with metadata filtering: pgvector, Qdrant or Milvus?",
  ranking: ["thorough", "concise", "skeptic"],
  answers: {
    thorough: {
      text: `## Recommendation

**Qdrant**, unless you already run Postgres and your filters are mostly relational joins.

## Size first

50M × 768 float32 values is about **154 GB** of raw vectors, plus the HNSW graph (roughly 6–12 GB at m = 16). So the real question is how each option keeps that fast:

| | pgvector | Qdrant | Milvus |
| --- | --- | --- | --- |
| Filters | post-filters the HNSW results (iterative scans since 0.8 help) | filter-aware HNSW over payload indexes | filtering built into the search |
| Memory | \`halfvec\` halves it to ~77 GB | int8 or binary quantization, originals on disk | IVF_PQ, DiskANN or GPU indexes |
| Ops | your existing Postgres | one binary; sharding when you outgrow a node | etcd, object storage and a message queue |

## Why Qdrant here

- Its HNSW takes payload filters into account, so a selective filter doesn't starve the result list.
- int8 quantization brings the hot set to about 40 GB, so one 64 GB node serves it, with rescoring from disk.
- It is a single service to run, and it shards when the corpus grows.

## When to choose the others

- **pgvector**: you need the vectors in the same transaction as your rows, and you can give the index build plenty of \`maintenance_work_mem\`. At 50M the build takes hours; test it before you commit.
- **Milvus**: you are heading for billions of vectors or want GPU indexes, and a platform team will run it.

## Before you decide

Load 5M of your own vectors with your real filters and compare recall@10 and p95 latency at your query rate. Published benchmarks rarely use your filter selectivity.`,
      strengths: [
        "It makes the pick the question asks for and says when the other two win.",
        "The memory estimate (about 154 GB raw, about 40 GB with int8) is right and drives the advice.",
        "It explains why filtering matters: filter-aware HNSW versus post-filtering.",
      ],
      weaknesses: ["The table compresses a lot; the pgvector row needs the version notes to make sense."],
      scores: { correctness: 9, completeness: 9, clarity: 8, helpfulness: 9, safety: 9, overall: 8.8 },
    },
    concise: {
      text: `**Qdrant.** At 50M vectors with metadata filters you want filter-aware HNSW and quantization to keep memory in check, and Qdrant gives you both in one service. pgvector gets slow to index and filter at this size; Milvus scales further but is much more to operate.`,
      strengths: [
        "It picks one and gives the two reasons that matter: filtered search and memory.",
        "The trade-offs it names for pgvector and Milvus are accurate.",
      ],
      weaknesses: [
        "No numbers: it never estimates the memory the 50M vectors need.",
        "It doesn't say when pgvector or Milvus would be the better choice, or how to check.",
      ],
      scores: { correctness: 8, completeness: 5, clarity: 9, helpfulness: 7, safety: 9, overall: 7.1 },
    },
    skeptic: {
      text: `I'd be wary of anyone who names a winner here without knowing more. All three can serve 50M vectors:

- **pgvector** keeps everything in Postgres, but filtered HNSW queries can return too few results when the filter is selective.
- **Qdrant** handles filters well, but it is another service to run and back up.
- **Milvus** scales the furthest, but its distributed setup is a lot to operate.

Vendor benchmarks rarely match real workloads, and the answer depends on your query rate, how selective your filters are, your latency budget and what your team already runs. Benchmark all three on your own data before choosing.`,
      strengths: [
        "Its caveats are accurate: post-filtering in pgvector, operating Milvus, vendor benchmarks.",
        "Benchmarking on your own filters is good advice.",
      ],
      weaknesses: [
        "It never picks, although the question asks for a pick.",
        "Benchmarking all three at 50M is a lot of work to hand back without narrowing the choice.",
      ],
      scores: { correctness: 8, completeness: 5, clarity: 7, helpfulness: 4, safety: 9, overall: 5.6 },
    },
  },
  synthesis: `**Use Qdrant**, unless your vectors must live in the same Postgres transactions as your rows.

**The size decides it.** 50M × 768 float32 values is about 154 GB of raw vectors plus the HNSW graph. Qdrant's int8 quantization keeps about 40 GB hot in RAM and rescores from disk, so one 64 GB node can serve the whole set, and it shards when you grow.

**Filtering is the other half.** Qdrant's HNSW uses payload indexes during the search, so a selective filter still returns a full result list. pgvector filters after the index scan (iterative scans since 0.8 soften this), and its HNSW build on 50M rows takes hours and a lot of \`maintenance_work_mem\`.

**When the others win.** pgvector, when transactional consistency with your tables matters more than query speed. Milvus, when you're heading for billions of vectors or GPU indexes and have a team to run etcd, object storage and a message queue.

**Check before committing:** load 5M of your own vectors with your real filters and compare recall@10 and p95 latency at your expected query rate.`,
};
