/** Battle outcomes in Chatbot Arena's clean-battle vocabulary. */

export const WINNERS = ["model_a", "model_b", "tie", "tie (bothbad)"] as const;

export type Winner = (typeof WINNERS)[number];

/** Model A's score: both kinds of tie count as half a win each way, as in Arena's Elo and Bradley–Terry. */
export function scoreOfA(w: Winner): 1 | 0 | 0.5 {
  switch (w) {
    case "model_a":
      return 1;
    case "model_b":
      return 0;
    case "tie":
    case "tie (bothbad)":
      return 0.5;
  }
}
