// The user's settings.json of the integration run (run.ts writes it; the tests read what to
// expect from it). A user value lets the workspace-settings test tell "the user's value" apart
// from "the default".
export const USER_COMMANDS_ALLOW = ['npm run lint'];

export const userSettings: Record<string, unknown> = { 'keel.commands.allow': USER_COMMANDS_ALLOW };
