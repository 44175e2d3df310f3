// How much of the input budget the repo map may take: a thirty-second of it, at most 2,048
// tokens (about what a map of a hundred files' top-level symbols needs); none in a window so
// small that every token is wanted for the task itself.
const MAX_TOKENS = 2048;
const MIN_TOKENS = 256;

export function repoMapBudget(inputBudgetTokens: number): number {
  const share = Math.min(MAX_TOKENS, Math.floor(inputBudgetTokens / 32));
  return share >= MIN_TOKENS ? share : 0;
}
