// Legacy environment overrides; applied before any file, so files win.
export function settingsFromEnv(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, Record<string, unknown> | unknown> = {};
  const client: Record<string, unknown> = {};
  if (env.SENSU_TRANSPORT_NAME) out.transport = { name: env.SENSU_TRANSPORT_NAME };
  if (env.RABBITMQ_URL) out.rabbitmq = env.RABBITMQ_URL;
  if (env.REDIS_SENTINEL_URLS) out.redis = { sentinels: env.REDIS_SENTINEL_URLS };
  else if (env.REDIS_URL) out.redis = env.REDIS_URL;
  if (env.SENSU_CLIENT_NAME) client.name = env.SENSU_CLIENT_NAME;
  if (env.SENSU_CLIENT_ADDRESS) client.address = env.SENSU_CLIENT_ADDRESS;
  if (env.SENSU_CLIENT_SUBSCRIPTIONS) client.subscriptions = env.SENSU_CLIENT_SUBSCRIPTIONS.split(',');
  if (Object.keys(client).length > 0) out.client = client;
  if (env.SENSU_API_PORT) out.api = { port: Number.parseInt(env.SENSU_API_PORT, 10) || 0 };
  return out;
}
