// The Skills view in the Keel container: the skills a new task would load (the user's, then the
// workspace's unless it is in Restricted Mode), each opening its SKILL.md, and the skipped ones
// with their problem, opening the file at its line. It refreshes when a skills folder changes.
// `Keel: New Skill` scaffolds `.keel/skills/NAME/SKILL.md` and opens it.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeSkillProblem, loadSkills, type SkillProblem } from '../../compose/skills/load-skills.js';
import { type SkillSource, workspaceSkillSource } from '../../compose/skills/skill-source.js';
import type { Workspace } from '../../kernel/index.js';
import { USE_SKILL, type SkillEntry } from '../../tools/skills/use-skill.js';
import { allTools } from '../../tools/index.js';
import { newSkillFile, newSkillProblem, skillTemplate } from '../../host/settings/skill-scaffold.js';

export const SKILLS_VIEW_ID = 'keel.skills';
const REFRESH_DELAY_MS = 200;

export interface SkillsViewDeps {
  workspace: Workspace | undefined;
  /** The folder open in the editor: its own watcher sees `.keel/skills` appear later. */
  folder: vscode.WorkspaceFolder | undefined;
  /** The user's skills folder (the one `keel run` reads too). */
  user: SkillSource;
  trusted(): boolean;
}

type SkillsItem = vscode.TreeItem;

export class SkillsView implements vscode.TreeDataProvider<SkillsItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: SkillsViewDeps) {
    const patterns = [new vscode.RelativePattern(vscode.Uri.file(deps.user.label), '**')];
    if (deps.folder) patterns.push(new vscode.RelativePattern(deps.folder, '.keel/skills/**'));
    for (const pattern of patterns) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      this.disposables.push(watcher, watcher.onDidCreate(this.later), watcher.onDidChange(this.later), watcher.onDidDelete(this.later));
    }
  }

  /** Refreshes soon: a burst of file events refreshes once. */
  private readonly later = (): void => {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), REFRESH_DELAY_MS);
  };

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(item: SkillsItem): SkillsItem {
    return item;
  }

  async getChildren(parent?: SkillsItem): Promise<SkillsItem[]> {
    if (parent) return [];
    const { workspace, user, trusted } = this.deps;
    const sources = [user, ...(workspace && trusted() ? [workspaceSkillSource(workspace)] : [])];
    const known = new Set([...allTools.map((t) => t.name), USE_SKILL]);
    const { skills, problems } = await loadSkills(sources, known);
    const items = [...skills.map((s) => this.skillItem(s)), ...problems.map((p) => this.problemItem(p))];
    if (workspace && !trusted()) items.push(restrictedItem());
    return items;
  }

  private skillItem(skill: SkillEntry): SkillsItem {
    const item = new vscode.TreeItem(skill.name);
    item.description = skill.scope;
    const tools = skill.tools ? `\n\nTools: ${[...skill.tools, USE_SKILL].join(', ')}` : '';
    item.tooltip = `${skill.description}${tools}\n\n${skill.file}`;
    item.iconPath = new vscode.ThemeIcon('book');
    item.contextValue = `skill.${skill.scope}`;
    item.command = { command: 'vscode.open', title: 'Open SKILL.md', arguments: [this.uriOf(skill.file)] };
    return item;
  }

  private problemItem(problem: SkillProblem): SkillsItem {
    const item = new vscode.TreeItem(path.basename(path.dirname(problem.file)));
    item.description = 'skipped';
    item.tooltip = describeSkillProblem(problem);
    item.iconPath = new vscode.ThemeIcon('warning');
    item.contextValue = 'skill.problem';
    const line = Math.max(0, (problem.line ?? 1) - 1);
    const options: vscode.TextDocumentShowOptions = { selection: new vscode.Range(line, 0, line, 0) };
    item.command = { command: 'vscode.open', title: 'Open SKILL.md', arguments: [this.uriOf(problem.file), options] };
    return item;
  }

  private uriOf(file: string): vscode.Uri {
    return vscode.Uri.file(path.isAbsolute(file) ? file : path.join(this.deps.workspace?.root ?? '', file));
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

function restrictedItem(): SkillsItem {
  const item = new vscode.TreeItem('Workspace skills are not loaded in Restricted Mode');
  item.iconPath = new vscode.ThemeIcon('shield');
  item.tooltip = 'Trust this workspace to load the skills in its .keel/skills folder.';
  return item;
}

/**
 * `Keel: New Skill`: asks for a name (unless a caller passes one: checked the same way), writes
 * the skeleton (never over a file) and opens it.
 */
export async function newSkill(workspace: Workspace | undefined, given?: unknown): Promise<vscode.Uri | undefined> {
  if (!workspace) {
    void vscode.window.showInformationMessage('Keel: open a folder first; a new skill goes in its .keel/skills folder.');
    return undefined;
  }
  const exists = async (rel: string) => (await workspace.stat(rel).catch(() => undefined)) !== undefined;
  const name =
    typeof given === 'string'
      ? given
      : await vscode.window.showInputBox({
          title: 'Keel: New Skill',
          prompt: 'The skill’s name: lowercase letters, digits and hyphens (it names its folder under .keel/skills)',
          placeHolder: 'release-notes',
          validateInput: (value) => newSkillProblem(value.trim(), exists),
        });
  if (name === undefined) return undefined;
  const problem = await newSkillProblem(name.trim(), exists);
  if (problem) {
    void vscode.window.showErrorMessage(`Keel: ${problem}`);
    return undefined;
  }
  const file = newSkillFile(name.trim());
  await workspace.writeFile(file, new TextEncoder().encode(skillTemplate(name.trim())));
  const uri = vscode.Uri.file(path.join(workspace.root, file));
  await vscode.window.showTextDocument(uri);
  return uri;
}
