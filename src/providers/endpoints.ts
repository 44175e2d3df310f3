// Where each vendor's own API lives: the only places an API key goes without asking the user
// first (the extension asks once per other host). The SDKs use these when no base URL is set.
export const OFFICIAL_API_ORIGIN = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com',
} as const;
