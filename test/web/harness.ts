/**
 * The browser tests' harness: builds the playground (web/ -> web/dist), serves it on
 * 127.0.0.1 with Vite's static preview server, and drives Debian's Chromium through
 * playwright-core (no browser download). Without Chromium the tests skip and say why.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = process.env.SSAKIT_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? null;
export const SKIP_REASON = CHROMIUM === null ? 'browser tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium, or set SSAKIT_CHROMIUM)' : '';
export const SHOTS = 'test-results/playground';

const web = fileURLToPath(new URL('../../web/', import.meta.url));

export interface Site {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const { build, preview } = await import('vite');
  await build({ root: web, configFile: `${web}vite.config.ts`, logLevel: 'error' });
  const server = await preview({ root: web, configFile: `${web}vite.config.ts`, preview: { host: '127.0.0.1', port: 0, strictPort: false }, logLevel: 'error' });
  const url = server.resolvedUrls!.local[0];
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM!,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(SHOTS, { recursive: true });
  return {
    url,
    browser,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    },
  };
}

/** The page's counter of pipeline-view updates (bumped after each successful compile). */
export async function pipelineVersion(page: Page): Promise<number> {
  return Number((await page.getAttribute('body', 'data-pipeline-version')) ?? '0');
}

/**
 * Waits until the pipeline view has been redrawn after `since` and shows the page's current
 * inputs (source, language, SSA mode, pipeline), with no compile waiting or running: a
 * reply to an earlier input (two option changes in a row, an edit in two transactions)
 * also bumps the version, and reading the views then would read that earlier program.
 */
export async function waitCompiled(page: Page, since: number, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (v) => Number(document.body.dataset.pipelineVersion ?? '0') > v && (window as unknown as { __ssakitShowsCurrentInput(): boolean }).__ssakitShowsCurrentInput(),
    since,
    { timeout },
  );
}

/**
 * Waits until the graph drawn is of the pipeline view as it is now (the worker draws it after
 * the view, or after a step is selected), optionally of a given kind, and returns its SVG
 * node count and the block count the worker reported.
 */
export async function waitGraph(page: Page, kind?: string, timeout = 30_000): Promise<{ nodes: number; blocks: number }> {
  await page.waitForFunction(
    (kind) => {
      const g = document.getElementById('graph')!;
      return g.dataset.version === document.body.dataset.pipelineVersion && (kind === null || g.dataset.kind === kind) && g.querySelector('svg g.node') !== null;
    },
    kind ?? null,
    { timeout },
  );
  return page.evaluate(() => ({
    nodes: document.querySelectorAll('#graph svg g.node').length,
    blocks: Number((document.getElementById('graph') as HTMLElement).dataset.blockCount),
  }));
}

/** Replaces the editor's text as a user's paste over a selection would: one CodeMirror transaction. */
export async function setEditorText(page: Page, text: string): Promise<void> {
  await page.locator('#editor .cm-content').click();
  await page.keyboard.press('Control+A');
  // one input event replacing the selection, like a paste: a Delete first would be an edit of
  // its own (the empty program), compiled if the debounce fires between the two
  await page.keyboard.insertText(text);
}
