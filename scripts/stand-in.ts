// `npm start -- --stand-in`: the profile that points Keel at the scripted stand-in model. The
// stand-in speaks the OpenAI-compatible wire format on this machine, which Keel runs without a
// key, so nothing asks to send an API key to it (it needs none); whatever keys the shell holds
// are kept out of the editor's environment for the same reason.
export interface StandInProfile {
  settings: Record<string, unknown>;
  env: Record<string, string>;
}

export function standInProfile(openaiBaseURL: string): StandInProfile {
  return {
    settings: { 'keel.provider': 'openai', 'keel.baseUrl': openaiBaseURL, 'keel.model': 'keel-stand-in' },
    env: { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
  };
}
