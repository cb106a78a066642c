import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = resolve(__dirname, '../../test-results/screenshots');

/**
 * Browser suites need Debian's chromium (scripts/ensure-local-services.sh installs it). Without
 * it they say so in one line; under REQUIRE_REAL_SERVICES=1 (CI) a missing browser fails the run.
 */
export function browserAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.REQUIRE_REAL_SERVICES === '1')
    throw new Error(
      `${suite}: ${CHROMIUM} is missing, but REQUIRE_REAL_SERVICES=1 demands a real browser (run scripts/ensure-local-services.sh)`,
    );
  console.log(`skipped: ${suite} (install chromium: scripts/ensure-local-services.sh)`);
  return false;
}

export interface TestBrowser {
  context: BrowserContext;
  /** Console errors and failed requests of every page, to assert none happened (a CSP refusal shows here). */
  problems: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** Headless chromium with a fresh profile, no sandbox (CI runs as root), no background traffic. */
export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1440, height: 1000 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const problems: string[] = [];
  return {
    context,
    problems,
    newPage: async () => {
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      // An API answering 4xx is part of a scenario (a rejected order); a CSP refusal or a missing page asset is not.
      page.on('console', (m) => {
        if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
          problems.push(`console: ${m.text()}`);
      });
      page.on('response', (r) => {
        const path = new URL(r.url()).pathname;
        if (r.status() >= 400 && !path.startsWith('/openapi/') && !path.startsWith('/admin/v1/'))
          problems.push(`${r.status()} ${path}`);
      });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      return page;
    },
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
