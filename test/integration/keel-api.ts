// Shared by Keel's integration tests: the extension's test API and a polling wait.
import * as vscode from 'vscode';
import type { KeelApi } from '../../src/vscode/test-api.js';

export async function keelApi(): Promise<KeelApi> {
  const ext = vscode.extensions.getExtension<KeelApi | undefined>('keel-dev.keel');
  if (!ext) throw new Error('keel-dev.keel is not installed');
  const api = await ext.activate();
  // A production build hands out nothing (esbuild.mjs without --test-api).
  if (!api) throw new Error('this Keel was built without the test API: package it with scripts/package-vsix.ts --test-api');
  return api;
}

export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('no workspace folder');
  return folder.uri;
}
