/**
 * A request without a body is read as bodyless whatever its Content-Type says, as Go's net/http and legacy's Rack do
 * (sensuctl and other clients type every request JSON, DELETE included), instead of Fastify's 400 for an empty JSON body.
 */
export function dropEmptyBodyType(headers: Record<string, string | string[] | undefined>): void {
  const length = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) delete headers['content-type'];
}
