import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from './paths.js';

/** Debian's chromium (scripts/install-test-servers.sh installs it); playwright never downloads a browser here. */
export const CHROMIUM = process.env.CHECKBRIDGE_CHROMIUM ?? '/usr/bin/chromium';

/** Where browser tests leave their screenshots (gitignored). */
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'dashboard');

/** Why browser tests cannot run here, or false; in CI a missing browser is a failure, not a skip. */
export function browserSkipReason(): string | false {
  if (existsSync(CHROMIUM)) return false;
  const reason = `chromium is not installed at ${CHROMIUM} (apt-get install chromium, or scripts/install-test-servers.sh)`;
  if (process.env.CI === 'true') throw new Error(`CI: ${reason}`);
  return reason;
}

/** Headless Chromium (playwright gives it a fresh temporary profile) with no background traffic: the machine has no network but loopback. */
export async function launchBrowser(t: { after(fn: () => Promise<void>): void }): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(ARTIFACTS, { recursive: true });
  t.after(async () => {
    await browser.close();
  });
  return browser;
}
