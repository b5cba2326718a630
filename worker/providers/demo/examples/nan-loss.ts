import type { Example } from "./types";

export const nanLoss: Example = {
  id: "nan-loss",
  title: "NaN loss with fp16",
  kind: "debugging",
  question:
    "My PyTorch training loss becomes NaN after a few hundred steps when I train with fp16 mixed precision. What should I check?",
  ranking: ["skeptic", "thorough", "concise"],
  answers: {
    skeptic: {
      text: `Don't change settings until you know where the first non-finite value appears; otherwise you may hide the bug instead of fixing it.

1. **Find the step.** Check \`torch.isfinite(loss)\` every step and log the gradient norm. A norm that climbs for a while before the NaN points at the optimiser; a sudden NaN points at one batch or one operation.
2. **Find the operation.** Re-run up to that step with \`torch.autograd.set_detect_anomaly(True)\`. It is slow, so only for the debugging run, but it names the backward op that produced the NaN.
3. **Check that batch.** Look for empty sequences, all-masked rows or extreme values at that step.

The usual culprits in fp16:

- \`log\` of 0 or a division by a tiny epsilon: 1e-8 rounds to 0 in fp16, so use 1e-6 or compute that part in fp32.
- A learning rate without warm-up.
- Gradient clipping on scaled gradients: call \`scaler.unscale_(optimizer)\` before \`clip_grad_norm_\`.

If your GPU supports bf16 (A100, H100, RTX 30xx and newer), it has fp32's exponent range and usually makes these overflows disappear. Still find the cause first.`,
      strengths: [
        "It starts with diagnosis (which step, which operation, which batch), the fastest route to the real cause.",
        "The fp16-specific traps are exact, including epsilon underflow and unscaling before clipping.",
        "The bf16 advice says which hardware supports it.",
      ],
      weaknesses: ["It could mention checking for bad values in the input data pipeline itself."],
      scores: { correctness: 10, completeness: 9, clarity: 8, helpfulness: 9, safety: 9, overall: 9.1 },
    },
    thorough: {
      text: `## Common causes

1. **Learning rate too high**: try 10× lower, and add warm-up.
2. **fp16 overflow**: values above 65,504 become \`inf\`.
3. **Bad data**: NaN or \`inf\` in the inputs or labels.
4. **Unstable operations**: \`log(0)\`, \`sqrt\` of negative numbers, division by zero.

## Use GradScaler with gradient clipping

\`\`\`python
scaler = torch.cuda.amp.GradScaler()

with torch.autocast("cuda", dtype=torch.float16):
    loss = model(batch)

scaler.scale(loss).backward()
torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
scaler.step(optimizer)
scaler.update()
optimizer.zero_grad()
\`\`\`

## Other checks

- Print the loss every step to find when it diverges.
- Try bf16 if your GPU supports it.
- Check for NaN in the model's weights after each step.`,
      strengths: [
        "The list of causes is broad and correct.",
        "It suggests bf16 and finding the step where the loss diverges.",
      ],
      weaknesses: [
        "The code clips the gradients while they are still scaled: scaler.unscale_(optimizer) must come before clip_grad_norm_, or the clip threshold is meaningless.",
        "It never says how to find the operation that produced the NaN.",
      ],
      scores: { correctness: 6, completeness: 7, clarity: 8, helpfulness: 6, safety: 8, overall: 6.5 },
    },
    concise: {
      text: `Lower the learning rate, add gradient clipping, or switch to bf16 if your GPU supports it. Those fix most fp16 NaNs.`,
      strengths: ["All three fixes are real and often work."],
      weaknesses: [
        "It offers fixes without any way to find the cause, so a data or numerics bug stays hidden.",
        "Clipping with a GradScaler needs unscale_ first, which it doesn't mention.",
      ],
      scores: { correctness: 7, completeness: 3, clarity: 9, helpfulness: 4, safety: 7, overall: 5.1 },
    },
  },
  synthesis: `Find where the first non-finite value appears before changing settings:

1. **The step.** Check \`torch.isfinite(loss)\` each step and log the gradient norm. A norm that creeps up suggests the learning rate; a sudden NaN suggests one batch or one operation.
2. **The operation.** Re-run to that step with \`torch.autograd.set_detect_anomaly(True)\` (slow, for debugging only); it names the backward op that failed.
3. **The batch.** Look for empty sequences, all-masked rows, NaN or extreme values.

The usual fp16 causes:

- \`log(0)\` or division by a tiny epsilon: 1e-8 rounds to 0 in fp16, so use 1e-6 or compute that part in fp32.
- A high learning rate without warm-up.
- Clipping scaled gradients. The right order is:

\`\`\`python
scaler.scale(loss).backward()
scaler.unscale_(optimizer)
torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
scaler.step(optimizer)
scaler.update()
\`\`\`

On an A100, H100 or RTX 30xx and newer, bf16 has fp32's exponent range and usually removes fp16 overflow entirely; it is a good default once you know what broke.`,
};
