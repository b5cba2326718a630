import type { Example } from "./types";

export const ragOrFineTune: Example = {
  id: "rag-or-fine-tune",
  title: "RAG or fine-tuning?",
  kind: "choice",
  question:
    "Should we fine-tune a small open model or use RAG with a hosted model to answer questions over 2,000 internal docs that change every week?",
  ranking: ["thorough", "concise", "skeptic"],
  answers: {
    thorough: {
      text: `## Recommendation: RAG

Docs that change weekly settle it. Fine-tuning bakes facts into weights, so every change means another training run, and even then the model recalls facts unreliably and can't cite where they came from.

## Why RAG fits

- **Freshness:** re-embed only the changed documents; an update is live in minutes.
- **Citations:** every answer can link the passages it used, so people can check it.
- **Permissions:** filter retrieved documents by who is asking; a fine-tuned model can leak anything it was trained on.
- **Cost:** 2,000 documents is a small index; no GPUs to train or host.

## A first version

1. Split documents into chunks of about 500–800 tokens, keeping titles and headings with each chunk.
2. Use hybrid search (BM25 plus embeddings), then a reranker on the top 20–50 results.
3. Collect 50–100 real questions with the documents that answer them, and track retrieval recall@5 and whether answers stick to their sources.

## Where fine-tuning still helps

For tone, output format or domain jargon, fine-tune later, on top of retrieval rather than instead of it. If the data can't leave your network, the same design works with a self-hosted model.`,
      strengths: [
        "It makes a clear recommendation and ties it to the weekly changes in the question.",
        "It covers what matters in practice: citations, per-user permissions and cost.",
        "The first version is concrete and comes with a way to measure it.",
      ],
      weaknesses: ["The chunk sizes are a reasonable default, not a rule; it could say to tune them on the eval set."],
      scores: { correctness: 9, completeness: 9, clarity: 9, helpfulness: 9, safety: 9, overall: 9 },
    },
    concise: {
      text: `**RAG.** With documents changing every week you'd be retraining every week, and fine-tuning is a poor way to store facts anyway. RAG lets you update the index the same day and cite the source of each answer.`,
      strengths: ["The right call, for the right two reasons: freshness and unreliable recall of fine-tuned facts."],
      weaknesses: [
        "No word on access control, which matters for internal documents.",
        "Nothing on how to build or evaluate it.",
      ],
      scores: { correctness: 9, completeness: 5, clarity: 9, helpfulness: 7, safety: 8, overall: 7.2 },
    },
    skeptic: {
      text: `Both approaches have real trade-offs, and I'd be careful with anyone who claims one is always right.

- **Fine-tuning** gives fast inference and no dependence on a search step, but retraining takes effort and the model may still make things up.
- **RAG** keeps answers closer to the source, but it depends on retrieval quality, adds latency, and sends your documents to the hosted provider.

The right choice depends on your budget, privacy requirements, latency targets and how good your retrieval is. You might prototype both on a sample of documents and compare.`,
      strengths: [
        "The trade-offs it lists are real, including sending documents to a hosted provider.",
        "Prototyping on a sample is reasonable advice.",
      ],
      weaknesses: [
        "It doesn't decide, even though the weekly changes point clearly at RAG.",
        "It treats retraining every week as merely 'effort' when it is the deciding cost.",
      ],
      scores: { correctness: 7, completeness: 5, clarity: 7, helpfulness: 4, safety: 9, overall: 5.4 },
    },
  },
  synthesis: `**Use RAG.** Documents that change every week rule out fine-tuning as the way to store their facts: every change would need another training run, and a fine-tuned model still recalls facts unreliably and can't say where an answer came from.

RAG fits because:

- **it stays fresh:** re-embed only the changed documents and the update is live the same day;
- **it can cite:** each answer links the passages it used;
- **it respects permissions:** retrieved documents are filtered by who is asking;
- **it is cheap at this size:** 2,000 documents is a small index.

A good first version: chunks of about 500–800 tokens with their headings, hybrid search (BM25 plus embeddings) with a reranker, and an eval set of 50–100 real questions with the documents that answer them, to measure retrieval recall and how closely answers stick to their sources.

Fine-tuning still has a place later, for tone, format or jargon, on top of retrieval. If documents may not leave your network, use the same design with a self-hosted model.`,
};
