import type { Logger } from 'pino';
import type { ResourceTables } from '../store/index.js';
import { PROVIDER_KIND, SECRET_KIND, ENV_TYPE, EXTERNAL_TYPE, type VaultClientSpec } from './model.js';
import type { SecretRef } from '../config/index.js';
import { envSecret } from './env-provider.js';
import { VaultProvider } from './vault-provider.js';
import { SecretFailure } from './failure.js';
import type { Json } from '../json.js';

/** The values for one execution, by environment variable name; or why it must fail (never naming a value). */
export type Resolution =
  { readonly ok: true; readonly env: Record<string, string>; readonly values: string[] } | { readonly ok: false; readonly output: string };

/** Resolves one definition's references in the namespace it runs in. */
export type SecretsLookup = (refs: readonly SecretRef[]) => Promise<Resolution>;

/** A provider went down (an unreachable vault, 5xx answers, a timeout) or came back. */
export interface OutageChange {
  readonly provider: string;
  readonly down: boolean;
  readonly reason: string;
}

export interface ResolverDeps {
  readonly store: ResourceTables;
  readonly logger: Logger;
  readonly onOutage?: (change: OutageChange) => void;
}

/**
 * Only the server resolves secrets: from the stored Secret and provider resources, at execution time,
 * nothing cached but each vault's TLS agent and rate limiter (rebuilt when its provider changes).
 */
export class SecretsResolver {
  private readonly log: Logger;
  private readonly vaults = new Map<string, { key: string; vault: VaultProvider }>();
  private readonly down = new Set<string>();

  constructor(private readonly deps: ResolverDeps) {
    this.log = deps.logger.child({ component: 'secrets' });
  }

  /** A lookup bound to a namespace (a function for the legacy namespace, which a reload may change). */
  in(namespace: string | (() => string)): SecretsLookup {
    return (refs) => this.resolve(typeof namespace === 'string' ? namespace : namespace(), refs);
  }

  async resolve(namespace: string, refs: readonly SecretRef[]): Promise<Resolution> {
    const env: Record<string, string> = Object.create(null);
    const values: string[] = [];
    for (const ref of refs) {
      const secret = this.deps.store.getResource(SECRET_KIND, namespace, ref.secret);
      const providerName = String(secret?.spec?.provider ?? '');
      try {
        if (!secret) throw new SecretFailure(`no Secret named ${JSON.stringify(ref.secret)} in namespace ${JSON.stringify(namespace)}`, false);
        const value = await this.read(providerName, String(secret.spec.id));
        env[ref.name] = value;
        values.push(value);
      } catch (error) {
        const failure = error instanceof SecretFailure ? error : new SecretFailure(`unexpected error: ${(error as Error).message}`, false);
        this.log.warn(
          { secret: ref.secret, name: ref.name, namespace, provider: providerName || undefined, reason: failure.reason },
          'secret not resolved: the execution fails',
        );
        const from = providerName ? ` from provider ${JSON.stringify(providerName)}` : '';
        return { ok: false, output: `Unable to resolve secret ${JSON.stringify(ref.secret)} (${ref.name})${from}: ${failure.reason}` };
      }
    }
    return { ok: true, env, values };
  }

  private async read(providerName: string, id: string): Promise<string> {
    const provider = this.deps.store.getResource(PROVIDER_KIND, '', providerName);
    if (!provider) throw new SecretFailure(`no secrets provider named ${JSON.stringify(providerName)}`, false);
    if (provider.type === ENV_TYPE) return envSecret(id);
    if (provider.type !== EXTERNAL_TYPE) throw new SecretFailure(`unknown provider type ${String(provider.type)}`, false);
    try {
      const value = await this.vaultOf(providerName, provider).get(id);
      this.mark(providerName, false, 'the provider answered again');
      return value;
    } catch (error) {
      if (error instanceof SecretFailure && error.outage) this.mark(providerName, true, error.reason);
      throw error;
    }
  }

  private vaultOf(name: string, provider: Json): VaultProvider {
    const key = JSON.stringify(provider.spec.client);
    const known = this.vaults.get(name);
    if (known?.key === key) return known.vault;
    known?.vault.close();
    const vault = new VaultProvider(provider.spec.client as VaultClientSpec);
    this.vaults.set(name, { key, vault });
    return vault;
  }

  // Raised once when a provider goes down, resolved once when it answers again.
  private mark(provider: string, down: boolean, reason: string): void {
    if (this.down.has(provider) === down) return;
    if (down) this.down.add(provider);
    else this.down.delete(provider);
    if (down) this.log.error({ provider, reason }, 'secrets provider is unavailable');
    else this.log.info({ provider }, 'secrets provider is available again');
    this.deps.onOutage?.({ provider, down, reason });
  }

  close(): void {
    for (const { vault } of this.vaults.values()) vault.close();
    this.vaults.clear();
  }
}
