import { checkServerIdentity as nodeCheckServerIdentity, type PeerCertificate } from 'node:tls';

// Go's wording: what users of the legacy agents and backends search for.
const LEGACY_COMMON_NAME = 'x509: certificate relies on legacy Common Name field, use SANs instead';

/** An error of a server certificate that names its host only in the common name. */
class LegacyCommonNameError extends Error {
  readonly code = 'ERR_TLS_CERT_LEGACY_COMMON_NAME';
  constructor(
    readonly host: string,
    readonly commonName: string,
  ) {
    super(`${LEGACY_COMMON_NAME} (the certificate of ${host} has the common name ${JSON.stringify(commonName)} and no subject alternative names)`);
  }
}

function commonNameOf(cert: PeerCertificate): string | null {
  const cn = (cert.subject as { CN?: string | string[] } | undefined)?.CN;
  if (Array.isArray(cn)) return cn[0] ?? null;
  return cn || null;
}

/**
 * Node's host check, except that a certificate with a common name and no subject alternative names is refused
 * (Node would match the host against the common name; Go, and so every legacy peer, refuses it).
 */
export function checkServerIdentity(host: string, cert: PeerCertificate): Error | undefined {
  const commonName = commonNameOf(cert);
  if (!cert.subjectaltname && commonName !== null) return new LegacyCommonNameError(host, commonName);
  return nodeCheckServerIdentity(host, cert);
}

/** What a failed connection says in logs: the legacy-common-name message in full, otherwise the error's code. */
export function connectFailureText(error: unknown): string {
  const e = error as { code?: string; message?: string; cause?: { code?: string } & Error };
  const legacy = [error, e?.cause].find((candidate) => candidate instanceof LegacyCommonNameError);
  if (legacy) return (legacy as LegacyCommonNameError).message;
  return e?.code ?? e?.cause?.code ?? e?.message ?? String(error);
}
