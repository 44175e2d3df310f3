// The text of `keel --help` (keel run, resume, restore, memory, replay; fleet and serve have their
// own). Kept apart from the flag parser so each stays one concept and a readable size.
import { SUBAGENT_DEFAULTS } from '../kernel/index.js';
import { CLI_PROVIDER_IDS, DEMO_PROVIDER, VENDORS } from '../providers/index.js';

// Vertex has no key: Google's credentials authorise it (said below).
const KEY_VARIABLES = VENDORS.filter((v) => !('cloudAuth' in v) || v.cloudAuth !== 'no-key')
  .map((v) => v.keyEnvVar)
  .join(' / ');

export const USAGE = `Usage:
  keel run [--workspace DIR] [--provider ${CLI_PROVIDER_IDS.join('|')}] [--model NAME] [--base-url URL]
           [--approve read,write,execute,network,memory | --approve all] [--allow-command PREFIX]...
           [--deny-command PREFIX]... [--pass-env NAME]... [--log FILE] [--max-turns N]
           [--context-window TOKENS] [--reasoning default|off|low|medium|high|TOKENS]
           [--max-tokens-param auto|max_tokens|max_completion_tokens] [--wire-api auto|chat|responses]
           [--region REGION] [--project ID]
           [--subagent-max-turns N] [--subagent-budget N]
           [--mcp-config FILE]... [--mcp-workspace] [--a2a-config FILE]... [--a2a-workspace]
           [--sandbox unasked|everything|off] [--no-checkpoints] [--no-problems]
           [--output text|json|jsonl] [--max-cost USD] [--max-tokens N] [--mode agent|plan|ask] [--agent NAME]
           [--allow-hooks | --allow-hooks-unsandboxed] [--allow-host HOST[:PORT]]...
           [--worktree[=NAME] [--from REF]]
           "<task>" | - (the task from stdin) | --task-file FILE
  keel resume LOG [the run flags above but --log, --mode and --agent] [--approve-plan]
  keel continue LOG [the run flags above but --log and --agent] "<message>"
  keel restore LOG --to STEP [--workspace DIR] [--overwrite]
  keel memory list [--workspace DIR] [--json]
  keel memory add [--workspace DIR] [--scope workspace|user] [--tag WORD]... [--path FILE]...
                  [--expires DATE] "<text>"
  keel memory forget [--workspace DIR] ID
  keel replay LOG [--workspace DIR] [--until SEQ] [--json] [--approve …] [--allow-command …]...
                  [--deny-command …]...
  keel worktree list|diff|apply|discard [NAME] [--workspace DIR] [--json] [--merge] [--yes]
  keel fleet add|work|run|status|results …   many headless tasks, on Redis or here (keel fleet --help)
  keel serve --a2a [--port N] …              Keel as an A2A agent (keel serve --help)
  keel review --base REF | A...B | --staged  a read-only review of a diff (keel review --help)

Worktree sessions (several tasks at once, each on its own branch):
  keel run --worktree [NAME] [--from REF] "<task>" runs the task in a new git worktree on branch
  keel/NAME (NAME from the task's words when not given; a taken name gets -2, -3…), made from HEAD
  or REF with git worktree add under $XDG_CONFIG_HOME/keel/worktrees/, never in the main folder.
  That worktree is the task's workspace: its edits, commands, checkpoints and log
  (…/logs/NAME.jsonl unless --log) stay there. Uncommitted changes of the main folder are not
  carried (you are told). The main folder's git-ignored node_modules, .venv, venv are linked in, not
  copied: read-only to the session (the file tools refuse them, sandboxed commands see them
  read-only). Outside a git repository the task runs in the folder, as without the flag.
  keel worktree list       each session: name, branch, status, files changed, cost against its cap
                           (--max-cost, --max-tokens); worktrees Keel made and no longer tracks are
                           listed for you to remove, never deleted.
  keel worktree diff NAME  the session's whole change against the commit it started from.
  keel worktree apply NAME applies that change to the main folder (uncommitted) only if every part
                           fits: if the main folder changed the same lines nothing is written and
                           the files are named. --merge commits the session on its branch and runs
                           git merge instead, leaving git's conflict markers on a conflict.
  keel worktree discard NAME removes the worktree and its branch; asks at a terminal, --yes without.

What runs without asking:
  --approve RISKS          a comma list of read, write, execute, network, memory. read (the
                           default): reading and searching inside the workspace. write: edits
                           outside protected paths. execute: test runs (the project's own
                           test command: npm/pnpm/yarn test, pytest, go test, cargo test,
                           make test, cmake and ctest, mvn -o test, gradle --offline test…) and
                           commands Keel classifies as read-only; other commands still ask,
                           naming the --allow-command prefix that would let them run. memory:
                           the model's remember and forget (the exact text is printed).
  --approve all            every risk and memory, and commands of every kind: builds, scripts,
                           installs, network use, lines Keel cannot classify (node script.js,
                           make, …).
                           Never unasked: dangerous commands (sudo, rm -rf /, dd to a disk, …)
                           and protected paths (.git, .vscode, .env, …): asked at a terminal,
                           refused without one. Always refused: --deny-command prefixes and
                           paths outside the workspace.
  --allow-command PREFIX   commands that start with these exact words run without asking,
                           e.g. --allow-command make --allow-command "npm run build"
                           ("make" covers "make test", not "makeup"). Repeatable.
  --deny-command PREFIX    commands that start with these words are always refused. Repeatable.
At a terminal Keel asks about anything else; without one it is rejected and the model is told.

Modes (--mode; the mode is logged, and keel resume continues in it):
  --mode agent             (the default) every tool, under the approvals above.
  --mode plan              only tools that change nothing (read, search, sub-agents that only
                           read, the to-do list): the model investigates and ends with a plan,
                           its to-do list, printed as it is written. At a terminal Keel then
                           asks "Approve the plan?": y carries it out in Agent mode (the same
                           list), n ends, anything else typed is sent in Plan mode as what to
                           change and the revised plan is asked about again. Without a terminal
                           it prints how to approve later: keel resume LOG --approve-plan.
  --mode ask               only tools that change nothing: the model answers, changing nothing.
The model's to-do list (todo_write) is printed whole each time it writes it.

Custom agents: Markdown files with YAML front matter (name, description, optional tools and
model; the body is the agent's instructions) in .keel/agents/, .claude/agents/ (Claude Code's
subagents) and .github/agents/*.agent.md (GitHub Copilot's custom agents, named by the file), and
in $XDG_CONFIG_HOME/keel/agents/ (else ~/.config/keel/agents/), which wins on a name. The model
hands one work with delegate {agent: NAME}. --agent NAME  runs the task as that agent: its
instructions end the system prompt and only its tools are offered (narrowed by --mode too; never
more than the run has, approvals unchanged); the pick is logged. An agent's model (sonnet, opus,
haiku, a display name such as "Claude Sonnet 4", or an id) is used when it is a model of the
task's vendor; otherwise the task's model runs and a line says so. A file with a problem is
skipped with its file and line on stderr; an unknown NAME is an error (exit 2).

Slash commands: keel run "/NAME ARGS" sends the saved prompt of .keel/commands/NAME.md,
.claude/commands/NAME.md, .github/prompts/NAME.prompt.md or $XDG_CONFIG_HOME/keel/commands/NAME.md
(else ~/.config/keel/commands/; it wins on a name), with $ARGUMENTS (all of ARGS) and $1…$9 (each
word) filled in. Optional front matter: description, argument-hint, agent (sent as that custom
agent), model (as an agent's), tools (narrow what is offered). An unknown NAME is an error (exit 2).

Hooks: commands run at fixed points of a task — TaskStart, UserPromptSubmit, PreToolUse and
PostToolUse (with a tool matcher), PreFold, TaskEnd — from $XDG_CONFIG_HOME/keel/hooks.json (else
~/.config/keel/hooks.json; yours, they always run) and the workspace's .keel/hooks.json and
.claude/settings.json / settings.local.json (Claude Code's hooks, read unchanged). A hook gets
the call as JSON on stdin; exit 2 (stderr the reason) or {"decision": "block"} blocks it and the
model is told why; a hook never approves. It runs like a command (the same withheld variables),
10 s unless its "timeout" says (at most 120 s). A PreToolUse or UserPromptSubmit hook that fails
or times out blocks, and so does one whose matcher is not a pattern ("*" means every tool). A
blocking or failing hook is printed.
  --allow-hooks            run the workspace's hooks too, in the sandbox a test run gets (without
                           it they are skipped, and keel says how many on stderr). What runs is
                           pinned at the task's start: the definitions and the bytes of the files
                           their commands name; hooks changed during the task do not run.
  --allow-hooks-unsandboxed  the same, run as your shell would run them (network, your home).

The sandbox (Linux, bubblewrap): commands that run unasked run in it, with no network, the file
system read-only, only the workspace, toolchains and system folders visible (your home, other
projects and .env files hidden), a private /tmp thrown away afterwards, the toolchains' caches
kept in $XDG_CACHE_HOME/keel/sandbox (never your own caches); a test run may write in
the workspace but not its protected paths (.git, .vscode, .keel, AGENTS.md, manifests and
lockfiles). Where there is no sandbox Keel says so on stderr and every command asks.
  --sandbox unasked        (the default) sandbox what runs unasked; commands you approve (at the
                           terminal, by --approve all, or earlier in the task) run as your shell
                           would run them.
  --sandbox everything     sandbox every command; those you approve may write in the workspace.
  --sandbox off            no sandbox: what runs unasked is decided by the command classifier
                           alone, as Keel did before it had a sandbox — but for the test
                           commands safe only inside it (make test, a .venv's python, pnpm…),
                           which then ask.
Whatever the sandbox, a command's processes end when it ends, and when keel ends (even killed).

The task and its log:
  "<task>"                 the task, in quotes. - reads it from stdin (… | keel run -), and
  --task-file FILE         reads it from FILE: a long brief, past the system's argument limit.
                           Either is read whole (at most 1 MiB of text); empty is an error.
  --config FILE            approvals, model and limits from a JSON file you or the CI job give
                           (never looked for in the workspace): {"approve": ["read","write"],
                           "allowCommands": [], "denyCommands": [], "sandbox": "unasked",
                           "provider": "…", "model": "…", "baseUrl": "…", "maxTurns": 25,
                           "maxCost": 1.5, "maxTokens": 200000}. A flag on the command line wins
                           over the file's value; deny rules add up. Unknown keys are exit 2.
  --log FILE               write the task's log there (sealed; keel replay, resume, continue and
                           restore read it). A log holds one task: an existing FILE is refused
                           (exit 2) — give a new path each run, or keel continue FILE "…".

Output and exit status:
  --output text            (default) the run as it streams, then a line of context and cost.
  --output json            only the result, at the end: status, reason, files changed with +/−
                           and the patch, the last test result, turns, tokens, cost, log path
                           (schemas/run-result.schema.json). Asks nothing: the headless policy.
  --output jsonl           each event as a JSON line as it happens, then {"type":"result",…}.
  --max-cost USD           stop the task once it has cost this much (a model with a known price).
  --max-tokens N           stop the task once it has used this many tokens (all kinds).
  Exit status of keel run and keel resume: 0 done; 1 failed (a model error, a task log that
  could not be written) or stopped by --max-turns/--max-cost/--max-tokens; 2 bad usage or a
  file Keel cannot use (a missing --mcp-config, a log it cannot resume or verify); 3 a call was refused
  by policy or needed an approval nobody gave (without a terminal nobody can give one), or a
  hook kept the task from being sent; 130 stopped (Ctrl+C, SIGTERM or SIGHUP: the first one
  ends the run with its result record and log whole, a second one exits at once).

  --context-window TOKENS  the model's context window, for a local model whose window Keel
                           cannot know (default: Keel's table, 32768 for unknown models). As the
                           context fills, older steps are folded into short notes.
  --reasoning LEVEL        how hard a model that reasons may think: default (the model's own
                           choice; Claude's extended thinking stays off, as it costs), off, low,
                           medium, high, or a thinking budget in tokens (at least 1024). Keel
                           sends it as the model takes it: Claude's thinking budget or effort,
                           reasoning_effort (OpenAI's o-series and GPT-5, xAI), DeepSeek's
                           thinking switch; a model that takes none gets nothing.
  --max-tokens-param FIELD the field the output limit goes in, for a model behind --base-url
                           Keel cannot know (an Azure deployment's own name): max_tokens or
                           max_completion_tokens (OpenAI's reasoning models take only this).
                           Default auto: Keel's model table, then the server's known rules.
  --wire-api API           the API an OpenAI-speaking model is reached through: chat (chat
                           completions) or responses (OpenAI's Responses API, e.g. for a
                           Codex model behind --base-url under another name). Default auto:
                           Keel's model table (the gpt-5-codex family and gpt-5-pro take
                           responses, every other model chat).
  --region REGION          Claude on a cloud: --provider bedrock's AWS region (default
                           AWS_REGION), --provider vertex's location (global, us-east5…;
                           default CLOUD_ML_REGION).
  --project ID             --provider vertex's Google Cloud project (default
                           ANTHROPIC_VERTEX_PROJECT_ID or GOOGLE_CLOUD_PROJECT, else the
                           credentials' own).
  --subagent-max-turns N   the most turns one sub-agent (delegate, delegate_plan) may take
                           (default ${SUBAGENT_DEFAULTS.maxTurns}; a model asking for more gets this many).
  --subagent-budget N      the sub-agent turns allowed across the task (default ${SUBAGENT_DEFAULTS.turnBudget}).
Sub-agents work under the same approvals; their lines are indented under the call that
started them, and each plan task's state is printed as it changes.

MCP servers (their tools are offered as mcp__SERVER__TOOL, plus mcp_read_resource):
  from $XDG_CONFIG_HOME/keel/mcp.json (else ~/.config/keel/mcp.json; the extension reads the same
  file) and each --mcp-config FILE, in VS Code's mcp.json form:
  {"servers": {"NAME": {"type": "stdio", "command": "…", "args": […], "env": {…}}
               | {"type": "http", "url": "…", "headers": {…}}}}
  --mcp-config FILE        more servers, started like your own. Repeatable.
  --mcp-workspace          also start the servers the workspace's .vscode/mcp.json defines.
                           Without it they are listed and skipped: a workspace must not run
                           programs on your machine unasked.
  An MCP tool runs unasked only when its server marks it read-only (readOnlyHint) and your own
  file trusts it: {"risk": {"NAME": "read", "NAME/TOOL": "read"}} beside "servers" (the tool's
  entry wins; a workspace's "risk" is ignored). Every other MCP tool asks (or is refused without
  a terminal), whatever --approve says. A server gets the environment commands get (no API
  keys, no credentials) plus its "env".
  A call that takes over 60 s is abandoned; a crashed server restarts on the next call (3 times).

Remote agents (A2A), offered to the model as delegate_remote {agent, task}:
  from $XDG_CONFIG_HOME/keel/a2a.json (else ~/.config/keel/a2a.json) and each --a2a-config FILE:
  {"agents": {"NAME": {"url": "http://…", "headers": {…}, "description": "…"}}}
  --a2a-config FILE        more agents, used like your own. Repeatable.
  --a2a-workspace          also offer the agents the workspace's .keel/a2a.json lists (without it
                           they are listed and skipped).
  A call is risk network: it asks (or is refused without a terminal) unless --approve network.
  What a remote agent returns is data for the model; it never approves or applies anything here.

API keys come from ${KEY_VARIABLES} (optional for a local --base-url); commands
Keel runs never see them. --provider bedrock signs with your AWS credentials when no key is set
(AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY with AWS_SESSION_TOKEN, or AWS_PROFILE);
--provider vertex uses Google's application default credentials (GOOGLE_APPLICATION_CREDENTIALS,
or gcloud auth application-default login). Commands never see those either. --provider ${DEMO_PROVIDER} runs a built-in demo that needs no key.

The code index (the repo map, the symbol tools) is kept between runs under
$XDG_CONFIG_HOME/keel/code-index (else ~/.config/keel/code-index), one file per workspace, never
in the workspace: a later run parses only what changed. The first request waits at most 500 ms
for the map; with --output text a longer build prints "keel: indexing N/M files…" on stderr.

Commands, test runs and MCP servers also never see the variables of your environment that look
like credentials: a name such as GITHUB_TOKEN, NPM_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD or
STRIPE_KEY, or a value that holds a key, token, private key or a password in a URL (secretlint's
recommended rules and a few of Keel's). keel run names them on stderr when it starts.
  --pass-env NAME          pass this variable to commands anyway (e.g. --pass-env NPM_TOKEN for
                           an approved npm publish). Repeatable. Keel's own API keys are never
                           passed.

web_fetch (risk network: it asks unless --approve network) reads public addresses only: never
this machine (localhost, 127.0.0.1 in any spelling, 0.0.0.0, [::1]), a private or link-local
network, or a cloud's metadata service — after each redirect and as the host resolves (the
address checked is the one connected to). A URL holding a credential, as written or percent-,
hex- or base64-encoded, is never sent.
  --allow-host HOST[:PORT] let web_fetch reach this host though it is not public (a docs server
                           on this machine: --allow-host localhost:8080; without a port, any
                           port). Repeatable. Only the command line and the user setting
                           keel.web.allowHosts allow one. browser_check may open it too.

Background processes: start_process starts a dev server or watcher (approved like run_command,
sandboxed the same way; at most 4 at once); keel run lists them at its end and stops them, and
they end with Keel even if it is killed. browser_check opens a page on this machine (localhost,
127.0.0.1, [::1], or an --allow-host) in the Chromium installed here (apt-get install chromium;
never downloaded) and returns its title, text, console errors, failed requests and a screenshot.

Memories (what earlier tasks or you asked Keel to remember) are kept in
$XDG_CONFIG_HOME/keel/memory (else ~/.config/keel/memory), never in the workspace: the user's
file, and one file per workspace. \`keel memory add\` keeps your own words (at most 1,000
characters; text that looks like a secret is refused); --path names files it concerns, so a
later recall can say when they changed. \`keel memory forget\` deletes one for good.

Skills: folders with a SKILL.md (YAML front matter: name, description, optional tools or
allowed-tools; then markdown instructions; other files are its resources), in the workspace's
.keel/skills/NAME/ and in $XDG_CONFIG_HOME/keel/skills/NAME/ (else ~/.config/keel/skills/NAME/).
The model sees each skill's name and description and loads one with use_skill; while a skill
that lists tools is active, only those tools are offered. A skill with a problem is skipped with
its file and line on stderr.

Checkpoints: before a step's first write, keel run keeps the prior bytes of the files it changes
in $XDG_CACHE_HOME/keel/checkpoints (else ~/.cache/keel/checkpoints), never in the workspace or
.git; the scan for commands skips what .gitignore and .keelignore ignore. Each checkpoint is an
event in the --log file. Old tasks' checkpoints go first past 500 MB per workspace. When a
checkpoint cannot be stored (a full disk), the change asks first (refused without a terminal):
it could not be undone. --no-checkpoints keeps none, and asks nothing for want of one.

Problems after each edit: once edit_file or write_file has written, keel run runs the project's
checker in the read-only sandbox and adds to that call's result the problems that are new (and
how many are gone): tsc --noEmit --incremental for a tsconfig.json with a local
node_modules/typescript (its build info in $XDG_CACHE_HOME/keel/sandbox, never the workspace),
shellcheck for .sh files. A checker is capped at 30 s; a missing one is said once.
--no-problems turns it off.

\`keel resume LOG\` continues a task whose run was interrupted (Ctrl+C, a crash), appending to its
--log file: a call that was approved or running when it stopped is asked again (refused without a
terminal), never re-run unasked. It continues only a log sealed by your key (keel run seals each
--log it writes; the key is $XDG_CONFIG_HOME/keel/log.key): a log changed since, unsealed (an
older Keel's) or another user's is refused, exit 2 — start the task again with keel run. The
approvals, command rules and sandbox mode are this command line's (--approve, --allow-command,
--deny-command, --sandbox, or their defaults); the log's header only narrows them, and stderr
says what the interrupted run approved that this command line does not. A log another keel is
writing is refused, exit 2, naming its pid and host (the writer holds LOG.lock while it runs).
A task stopped cleanly (one Ctrl+C, SIGTERM, SIGHUP) resumes by being sent "Go on with the task
from where it was stopped." (said on stderr).
\`keel resume LOG --approve-plan\` approves the plan a --mode plan run ended with and carries it out in
Agent mode (the message VS Code's Approve plan sends); exit 2 when LOG has no plan waiting (not in
Plan mode, no to-do list, or still running).
\`keel continue LOG "message"\` sends a follow-up to a task that has ended (done, failed, stopped,
or waiting for a message) as its next message, appending to LOG, under resume's rules: a sealed
log no other keel is writing, and the approvals of this command line, the header only narrowing
them. --mode sends the message in that mode.

\`keel restore LOG --to STEP\` puts the files a recorded task changed back as they were right after
model step STEP (0: before its first change), from its checkpoints, in the task's workspace (or
--workspace DIR), the way the extension's "Restore files to here" does; the restore is logged in
LOG. Files changed since the task last wrote them are overwritten only when you confirm at the
terminal, or with --overwrite. Exit 0 restored or nothing to do, 1 not confirmed, 2 usage.

\`keel replay LOG\` plays a recorded task's model outputs (no model is called) through this build's
tools and policy, in a scratch copy of the workspace in the task's starting state, and prints
each step that differs (step, seq, kind: edit, observation or policy, recorded and replayed), or
"replays clean"; a call the recording never finished is listed as interrupted, not compared. A
log is data: its commands run only in the OS sandbox over the copy, whatever it approved (none
runs where there is no sandbox: the report lists them as not run), and its header's approvals
are only what verdicts are compared with.
Exit 0 clean, 1 differences, 2 bad usage or a log it cannot replay (a damaged or unknown line is
named by its number).
  --workspace DIR          a folder in the state the task started from (copied; never written).
                           Default: the current folder, with every file the task changed put
                           back from its checkpoints (run it in the task's workspace).
  --until SEQ              replay the log up to this event sequence number.
  --json                   the report as JSON.
  --approve, --allow-command, --deny-command: decide with these instead of the approvals and
                           command rules the log's header records (logs without them: nothing
                           pre-approved, and the report says so).`;
