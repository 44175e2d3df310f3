// Claude's model ids as Amazon Bedrock and Google Vertex AI spell them, read back to the model
// table's family ids so a cloud id gets its family's window, output limit, request rules and
// price. Bedrock writes `anthropic.claude-sonnet-4-5-20250929-v1:0`, or an inference profile
// with a geography in front (`us.`, `eu.`, `apac.`, `global.`…); Vertex writes
// `claude-sonnet-4-5@20250929`. What a cloud charges depends on the endpoint: on both clouds a
// regional endpoint of Claude 4.5 and later costs 10% more than the global one. A Bedrock id says
// which it is (a `global.` profile or not); a Vertex id does not (the region setting does), so a
// Vertex model of those families has no price in Keel and the UI shows its tokens only.

/** Where a cloud id runs, as far as the id says. */
type CloudEndpoint = 'global' | 'regional' | 'unsaid';

export interface CloudModel {
  /** The model table's id of the family (`claude-sonnet-4-5-20250929`). */
  family: string;
  endpoint: CloudEndpoint;
}

/** `[geo.]anthropic.NAME[-vN[:N]]`: Bedrock's base model ids and its cross-region inference profiles. */
const BEDROCK_ID = /^(?:(global|[a-z]{2,4}(?:-gov)?)\.)?anthropic\.(claude-[a-z0-9.-]+?)(?:-v\d+(?::\d+)?)?$/;
/** `NAME@DATE` (or `@latest`): Vertex's publisher model ids. */
const VERTEX_ID = /^(claude-[a-z0-9.-]+)@(\d{8}|latest)$/;
/** The families whose regional endpoints cost more than the global: Claude 4.5 and later. */
const REGIONAL_PREMIUM_FAMILY = /^claude-[a-z]+-(4-[5-9]|[5-9]|\d{2})(-|$)/;
/** What a regional endpoint of those families costs over the list (global) price. */
const REGIONAL_PREMIUM = 1.1;

/** A Bedrock or Vertex id (lower case, without any ARN path) as its family, or undefined. */
export function cloudModel(id: string): CloudModel | undefined {
  const bedrock = BEDROCK_ID.exec(id);
  if (bedrock) return { family: bedrock[2]!, endpoint: bedrock[1] === 'global' ? 'global' : 'regional' };
  const vertex = VERTEX_ID.exec(id);
  if (vertex) return { family: vertex[2] === 'latest' ? vertex[1]! : `${vertex[1]}-${vertex[2]}`, endpoint: 'unsaid' };
  return undefined;
}

/** The factor a cloud endpoint's price is of the list price; undefined when the id cannot say. */
export function cloudPriceFactor(model: CloudModel): number | undefined {
  if (!REGIONAL_PREMIUM_FAMILY.test(model.family) || model.endpoint === 'global') return 1;
  return model.endpoint === 'regional' ? REGIONAL_PREMIUM : undefined;
}

/** The Claude models the picker offers on Bedrock: global profiles first, then the US ones and base ids. */
export const BEDROCK_MODELS: readonly string[] = [
  'global.anthropic.claude-sonnet-4-5-20250929-v1:0',
  'global.anthropic.claude-haiku-4-5-20251001-v1:0',
  'global.anthropic.claude-opus-4-5-20251101-v1:0',
  'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
  'us.anthropic.claude-opus-4-1-20250805-v1:0',
  'us.anthropic.claude-sonnet-4-20250514-v1:0',
  'anthropic.claude-3-5-haiku-20241022-v1:0',
];

/** The Claude models the picker offers on Vertex AI. */
export const VERTEX_MODELS: readonly string[] = [
  'claude-sonnet-4-5@20250929',
  'claude-haiku-4-5@20251001',
  'claude-opus-4-5@20251101',
  'claude-opus-4-1@20250805',
  'claude-sonnet-4@20250514',
];
