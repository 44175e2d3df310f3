// The local model servers Keel knows by name — Ollama, LM Studio, llama.cpp's server and vLLM —
// and how each says the context window it runs a model with, asked before a run (the window
// decides when Keel folds; a local server that is handed more silently drops the front):
//   Ollama: /api/show's `num_ctx` parameter when the model sets one, else /api/ps's
//           `context_length` of the loaded model, else no more than the model's trained length;
//   LM Studio: /api/v0/models/<model>'s `loaded_context_length`, else `max_context_length`;
//   llama.cpp: /props' `default_generation_settings.n_ctx` (the window of one slot);
//   vLLM: /v1/models' `max_model_len` for the served model.
// Every answer is untrusted: only a whole number of tokens in a sane range is taken.

export type LocalServer = 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm';

/** How long a server may take to say: a run never waits on a silent one for long. */
const ASK_TIMEOUT_MS = 3_000;
const WINDOW_RANGE = { min: 1_024, max: 10_000_000 } as const;

type Json = Record<string, unknown>;
type Fetch = (
  url: string,
  init?: { method?: string; body?: string; headers?: Record<string, string>; signal?: AbortSignal },
) => Promise<{ ok: boolean; json(): Promise<unknown> }>;

/**
 * The window the server says it runs `model` with, or undefined when it does not say (or cannot
 * be reached). `upTo`: the window Keel would use otherwise, the most a trained length raises it to.
 */
export async function askContextWindow(
  server: LocalServer,
  baseURL: string,
  model: string,
  signal: AbortSignal,
  upTo: number,
  fetchJson: Fetch = globalThis.fetch as unknown as Fetch,
): Promise<number | undefined> {
  const origin = new URL(baseURL).origin;
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(ASK_TIMEOUT_MS)]);
  const get = async (path: string, body?: unknown): Promise<Json | undefined> => {
    try {
      const init =
        body === undefined
          ? { signal: timeout }
          : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, signal: timeout };
      const res = await fetchJson(`${origin}${path}`, init);
      const parsed = res.ok ? await res.json() : undefined;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Json) : undefined;
    } catch {
      return undefined;
    }
  };
  switch (server) {
    case 'ollama':
      return ollamaWindow(await get('/api/show', { model }), () => get('/api/ps'), model, upTo);
    case 'lmstudio': {
      const info = await get(`/api/v0/models/${encodeURIComponent(model)}`);
      return tokens(info?.loaded_context_length) ?? tokens(info?.max_context_length);
    }
    case 'llamacpp': {
      const props = await get('/props');
      return tokens((props?.default_generation_settings as Json | undefined)?.n_ctx) ?? tokens(props?.n_ctx);
    }
    case 'vllm': {
      const list = await get('/v1/models');
      const data = Array.isArray(list?.data) ? (list.data as Json[]) : [];
      const served = data.find((m) => m && m.id === model) ?? (data.length === 1 ? data[0] : undefined);
      return tokens(served?.max_model_len);
    }
  }
}

async function ollamaWindow(
  show: Json | undefined,
  ps: () => Promise<Json | undefined>,
  model: string,
  upTo: number,
): Promise<number | undefined> {
  const set = typeof show?.parameters === 'string' ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(show.parameters)?.[1] : undefined;
  if (set) return tokens(Number(set));
  const running = await ps();
  const models = Array.isArray(running?.models) ? (running.models as Json[]) : [];
  const loaded = models.find((m) => m && (m.name === model || m.model === model || m.name === `${model}:latest`));
  const inUse = tokens(loaded?.context_length);
  if (inUse) return inUse;
  // Only the model's trained length: the server may run it shorter, never longer.
  const info = (show?.model_info ?? {}) as Json;
  const trained = Object.entries(info).find(([k]) => k.endsWith('.context_length'))?.[1];
  const most = tokens(trained);
  return most === undefined ? undefined : Math.min(most, upTo);
}

function tokens(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= WINDOW_RANGE.min && v <= WINDOW_RANGE.max ? v : undefined;
}
