// A repository's git config, read the way git reads it, against a list of the settings known to
// name no program and fetch nothing. An auto-approved git command runs only when every setting of
// the repository's config (and of the files it includes) is on the list: core.fsmonitor,
// core.pager, diff.external, a textconv or filter driver, a credential helper, a partial
// clone's promisor remote, an ssh command… are not, so any of them makes the command ask.

export interface ConfigEntry {
  section: string;
  /** `remote "origin"` → `origin`; absent for `[core]`. Case-sensitive, as in git. */
  subsection?: string;
  key: string;
  value: string | undefined;
}

export type ParsedConfig = { type: 'ok'; entries: ConfigEntry[] } | { type: 'bad'; line: number; why: string };

/** Settings by section (lowercase), for sections without a subsection: the keys allowed. */
const PLAIN: Record<string, ReadonlySet<string> | 'any'> = {
  core: new Set([
    'repositoryformatversion',
    'filemode',
    'bare',
    'logallrefupdates',
    'ignorecase',
    'precomposeunicode',
    'symlinks',
    'autocrlf',
    'eol',
    'safecrlf',
    'quotepath',
    'abbrev',
    'checkstat',
    'trustctime',
    'sparsecheckout',
    'sparsecheckoutcone',
    'longpaths',
    'untrackedcache',
    'commitgraph',
    'multipackindex',
  ]),
  user: new Set(['name', 'email']),
  init: new Set(['defaultbranch']),
  pull: new Set(['rebase', 'ff']),
  push: new Set(['default', 'autosetupremote']),
  fetch: new Set(['prune', 'prunetags']),
  merge: new Set(['ff', 'conflictstyle']),
  rebase: new Set(['autosquash', 'autostash']),
  diff: new Set(['renames', 'algorithm', 'mnemonicprefix', 'noprefix', 'renamelimit', 'colormoved', 'indentheuristic']),
  log: new Set(['date', 'decorate', 'follow']),
  status: new Set(['showuntrackedfiles', 'submodulesummary', 'short', 'branch', 'relativepaths']),
  color: 'any',
  gc: new Set(['auto', 'autodetach']),
  index: new Set(['version']),
  extensions: new Set(['objectformat']),
  lfs: new Set(['repositoryformatversion']),
};

/** Sections with a subsection (a remote's, a branch's name): the keys allowed. */
const NAMED: Record<string, ReadonlySet<string> | 'any'> = {
  remote: new Set(['url', 'pushurl', 'fetch', 'push', 'tagopt', 'prune', 'mirror', 'skipdefaultupdate', 'skipfetchall']),
  branch: new Set(['remote', 'merge', 'rebase', 'pushremote', 'description', 'vscode-merge-base']),
  submodule: new Set(['url', 'active', 'branch']),
  color: 'any',
};

/** Settings that include another file: read too, and checked the same way. */
export function includedPath(e: ConfigEntry): string | undefined {
  const include = e.section === 'include' ? e.subsection === undefined : e.section === 'includeif';
  return include && e.key === 'path' ? e.value : undefined;
}

/** Why the entry is not known to be harmless, or undefined. */
export function settingProblem(e: ConfigEntry): string | undefined {
  if (includedPath(e) !== undefined) return undefined;
  const table = e.subsection === undefined ? PLAIN : NAMED;
  const keys = Object.hasOwn(table, e.section) ? table[e.section] : undefined;
  if (keys === 'any' || keys?.has(e.key)) return undefined;
  const name = [e.section, e.subsection, e.key].filter((p) => p !== undefined).join('.');
  return `the repository's git config sets ${name}, which is not a setting known to run nothing`;
}

/** Parses a config file as git does; anything it cannot read makes the file `bad` (the command asks). */
export function parseGitConfig(text: string): ParsedConfig {
  const entries: ConfigEntry[] = [];
  let section: { name: string; subsection?: string } | undefined;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    let rest = lines[n]!.replace(/\r$/, '').trimStart();
    if (rest.startsWith('[')) {
      const header = /^\[\s*([A-Za-z0-9.-]+)\s*(?:"((?:[^"\\\n]|\\.)*)")?\s*\]/.exec(rest);
      if (!header) return bad(n, 'a section header git would read differently');
      section = splitSection(header[1]!, header[2]);
      rest = rest.slice(header[0].length).trimStart();
    }
    if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) continue;
    if (!section) return bad(n, 'a setting before any section');
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=?)/.exec(rest);
    if (!key) return bad(n, 'a line that is neither a section nor a setting');
    let value: string | undefined;
    if (key[2] === '=') {
      const read = readValue(lines, n, rest.slice(key[0].length));
      if (read === undefined) return bad(n, 'a value git would read differently');
      value = read.value;
      n = read.lastLine;
    } else if (!/^\s*([#;]|$)/.test(rest.slice(key[0].length))) return bad(n, 'a setting without =');
    entries.push({
      section: section.name,
      ...(section.subsection === undefined ? {} : { subsection: section.subsection }),
      key: key[1]!.toLowerCase(),
      value,
    });
  }
  return { type: 'ok', entries };
}

function bad(n: number, why: string): ParsedConfig {
  return { type: 'bad', line: n + 1, why };
}

/** `[core]`, `[remote "origin"]`, and the old `[branch.main]` (whose subsection git lowercases). */
function splitSection(name: string, quoted: string | undefined): { name: string; subsection?: string } {
  if (quoted !== undefined) return { name: name.toLowerCase(), subsection: quoted.replace(/\\(.)/g, '$1') };
  const dot = name.indexOf('.');
  if (dot === -1) return { name: name.toLowerCase() };
  return { name: name.slice(0, dot).toLowerCase(), subsection: name.slice(dot + 1).toLowerCase() };
}

/** A value: quotes, escapes, a comment after it, and a backslash at the end of a line continuing it. */
function readValue(lines: readonly string[], first: number, start: string): { value: string; lastLine: number } | undefined {
  let out = '';
  let quoted = false;
  let n = first;
  let text = start;
  for (let i = 0; ; i++) {
    const c = text[i];
    if (c === undefined || c === '\r') {
      if (quoted) return undefined;
      return { value: out.trim(), lastLine: n };
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) return { value: out.trim(), lastLine: n };
    else if (c === '\\') {
      const d = text[i + 1];
      if (d === undefined || d === '\r') {
        if (++n >= lines.length) return undefined;
        text = lines[n]!;
        i = -1;
        continue;
      }
      const escaped = ({ n: '\n', t: '\t', b: '\b', '"': '"', '\\': '\\' } as Record<string, string>)[d];
      if (escaped === undefined) return undefined;
      out += escaped;
      i++;
    } else out += c;
  }
}
