import type { Settings } from '../config/index.js';
import type { CheckResult, ResultIntake } from '../execute/index.js';
import type { OutageChange } from './resolver.js';
import { asLegacyName } from '../rules/index.js';

/** The check of the server's own entity that carries a provider's outage (a name legacy check names accept). */
const outageCheckName = (provider: string) => `secrets-provider-${asLegacyName(provider)}`;

/**
 * A provider outage as a result of the server's own entity (Sensu Go raises a backend event when a provider is
 * unavailable): critical while it is down, ok when it answers again, which resolves the event.
 */
export function outageResult(entity: string, change: OutageChange, nowMs: number): CheckResult {
  const now = Math.floor(nowMs / 1000);
  const output = change.down ? `secrets provider ${change.provider} is unavailable: ${change.reason}` : `secrets provider ${change.provider} is available`;
  return { client: entity, check: { name: outageCheckName(change.provider), output, status: change.down ? 2 : 0, executed: now, issued: now } };
}

/** A provider's outages, each a result of this daemon's own entity (the client name of the settings in force) into `intake`. */
export class OutageReports {
  constructor(
    private readonly intake: ResultIntake,
    private readonly settings: () => Settings,
  ) {}

  readonly report = (change: OutageChange): void => void this.intake.submit(outageResult(String(this.settings().client.name), change, Date.now()));
}
