// The model adapters. Which vendors Keel offers, and each one's facts and factory, is in
// registry.ts; what Keel knows about each model (window, output limit, price) is in models.ts.
import { VENDORS, type VendorId } from './registry.js';

export { createAnthropicProvider } from './anthropic.js';
export { ScriptedProvider } from './scripted.js';
export { capabilitiesFor, MAX_TOKENS_PARAM_CHOICES, priceOf, type MaxTokensParamChoice, type Price } from './models.js';
export { parseReasoning, REASONING_CHOICES, type ReasoningSetting } from './reasoning.js';
export { WIRE_API_CHOICES, type WireApiChoice } from './responses.js';

export {
  CLI_PROVIDER_IDS,
  DEFAULT_VENDOR,
  DEMO_PROVIDER,
  effectiveBaseUrl,
  parseVendorId,
  pickerModels,
  VENDOR_IDS,
  VENDORS,
  vendorOf,
  type CliProviderId,
  type VendorId,
} from './registry.js';

/** The model used when none is set, per vendor (the registry's defaultModel). */
export const DEFAULT_MODELS = Object.fromEntries(VENDORS.map((v) => [v.id, v.defaultModel])) as Record<VendorId, string>;
