// The user's settings.json of the integration run (run.ts writes it; the tests read what to
// expect from it). A user value lets the workspace-settings test tell "the user's value" apart
// from "the default".
export const USER_COMMANDS_ALLOW = ['npm run lint'];
/** A variable named like a credential that the user lets commands see. */
export const USER_PASS_ENV = ['KEEL_PASSED_TOKEN'];

export const userSettings: Record<string, unknown> = {
  'keel.commands.allow': USER_COMMANDS_ALLOW,
  'keel.commands.passEnv': USER_PASS_ENV,
};
