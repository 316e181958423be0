// One HTTP listener's TLS, as the API builders take it (src/cli/tls-options.ts makes it from settings, flags and environment).

/** What fastify's `https` option takes for one listener. */
export interface ListenerHttps {
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly ca?: Buffer;
  readonly requestCert: boolean;
  readonly rejectUnauthorized: boolean;
  readonly minVersion: 'TLSv1.2';
}

/** Fastify's options for `https` (none for plain HTTP); typed as plain options, since an HTTPS server is an HTTP server with TLS. */
export function httpsOption(https: ListenerHttps | null | undefined): object {
  return https ? { https } : {};
}
