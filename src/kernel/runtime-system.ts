// The system prompt a runtime sends: the text it was given, or what its builder makes from the
// task's state, built once per runtime. The builder also gives the sub-agents' prompt and the
// rule files it used (logged when they differ from those the state already holds).
import type { ConversationState } from './contracts/state.js';
import type { BuiltSystemPrompt, RuntimeOptions } from './runtime-options.js';
import { DEFAULT_SUBAGENT_PROMPT } from './frames.js';
import { DEFAULT_SYSTEM_PROMPT } from './system-prompt.js';

export class RuntimeSystem {
  private text: Promise<string> | undefined;
  private built: string | undefined;
  /** The sub-agents' prompt: the builder's once it has run, else the default. */
  child = DEFAULT_SUBAGENT_PROMPT;

  constructor(private readonly given: RuntimeOptions['system']) {}

  /** Builds the prompt the first time (from the state then); `onRules` hears a change of rule files. */
  get(state: () => ConversationState, onRules: (paths: string[]) => void): Promise<string> {
    const given = this.given;
    this.text ??= (
      typeof given === 'function' ? given(state()) : Promise.resolve<BuiltSystemPrompt>({ text: given ?? DEFAULT_SYSTEM_PROMPT, rules: [] })
    ).then((built) => {
      this.built = built.text;
      if (built.childText !== undefined) this.child = built.childText;
      if (built.rules.join('\u0000') !== state().rules.join('\u0000')) onRules(built.rules);
      return built.text;
    });
    return this.text;
  }

  /** The prompt as far as known without waiting: a builder's text once it has run. */
  known(): string {
    return this.built ?? (typeof this.given === 'string' ? this.given : DEFAULT_SYSTEM_PROMPT);
  }
}
