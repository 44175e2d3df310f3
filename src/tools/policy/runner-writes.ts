// Protected files a test runner writes as part of running, which a test run may create where
// there were none: cargo's first Cargo.lock beside the Cargo.toml it resolved (its versions come
// from that manifest, which stays protected), and the .gitignore pytest, mypy and ruff put in
// their own cache folders (it ignores only that folder). Replacing one that existed is still
// undone.

const CACHE_GITIGNORE = /(?:^|\/)\.(?:pytest_cache|mypy_cache|ruff_cache)\/\.gitignore$/;

export function runnerWrites(rel: string, exists: (rel: string) => boolean): boolean {
  if (CACHE_GITIGNORE.test(rel)) return true;
  if (!/(?:^|\/)Cargo\.lock$/.test(rel)) return false;
  return exists(rel.replace(/Cargo\.lock$/, 'Cargo.toml'));
}
