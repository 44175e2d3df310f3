// Work counters for tests and the bench: parses (token runs rendered to DOM) and characters
// handed to marked's lexer. Counting work proves the cost per frame without timing it.
export const markdownStats = { parses: 0, lexedChars: 0 };
