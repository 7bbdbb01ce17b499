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

/** Waits until the pipeline view has been redrawn after `since`. */
export async function waitCompiled(page: Page, since: number, timeout = 30_000): Promise<void> {
  await page.waitForFunction((v) => Number(document.body.dataset.pipelineVersion ?? '0') > v, since, { timeout });
}

/** Replaces the editor's text as a user's edit would (a CodeMirror transaction). */
export async function setEditorText(page: Page, text: string): Promise<void> {
  await page.locator('#editor .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  // one input event, like a paste: much faster than typing key by key, and no auto-indent
  await page.keyboard.insertText(text);
}
