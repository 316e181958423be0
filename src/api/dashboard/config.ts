import type { FastifyInstance } from 'fastify';
import type { V2ApiDeps } from '../v2/context.js';
import { fail } from '../v2/context.js';
import { loadSettings } from '../../config/index.js';
import { substituteObject } from '../../tokens/index.js';
import { compileSettings, formatResources } from '../../compile/index.js';
import { PREFIX, param, type DashboardDeps } from './deps.js';
import { configuredChecks, legacyNamespace } from '../../config/index.js';

/** Configuration diagnostics (as `validate`), a rendered check (as `render`) and the migration report (as `compile`). */
export function registerConfigRoutes(app: FastifyInstance, deps: V2ApiDeps, dash: DashboardDeps): void {
  app.get(`${PREFIX}/config/diagnostics`, () => {
    const outcome = loadSettings(dash.sources);
    return {
      valid: outcome.diagnostics.length === 0,
      files: outcome.files.map((f) => f.path),
      diagnostics: outcome.diagnostics.map(({ file, line, column, path, message }) => ({ file, line, column, path, message })),
      warnings: outcome.warnings,
    };
  });
  app.get(`${PREFIX}/config/render`, (request, reply) => {
    const settings = dash.settings();
    const name = param(request.query, 'check');
    const clientName = param(request.query, 'client');
    const definition = Object.hasOwn(settings.checks, name) ? configuredChecks(settings)[name] : undefined;
    if (!definition) return fail(reply, 'notFound', 'no such check');
    const client = clientName && clientName !== settings.client.name ? deps.store.getClient(clientName) : (settings.client as Record<string, unknown>);
    if (!client || client.invalidated) return fail(reply, 'notFound', 'no such client');
    const { value, unmatched } = substituteObject({ ...definition, name }, client);
    return { client: String(client.name), check: { ...value, unmatched_tokens: unmatched } };
  });
  const compiled = () => {
    const outcome = loadSettings(dash.sources);
    if (!outcome.settings) return null;
    const silences = deps.store.silences.list(deps.clock.now()).map((e) => e.value as Record<string, unknown>);
    return compileSettings(outcome.settings, outcome.files, legacyNamespace(dash.settings()), { silences });
  };
  app.get(`${PREFIX}/migration`, (_request, reply) => {
    const result = compiled();
    if (!result) return fail(reply, 'invalid', 'the configuration is invalid: see Configuration');
    return {
      resources: result.resources.map((r) => ({ type: r.type, name: r.metadata.name, namespace: r.metadata.namespace ?? null })),
      warnings: result.warnings.map(({ file, line, column, path, message }) => ({ file, line, column, path, message })),
      labels: result.labelReport,
    };
  });
  app.get(`${PREFIX}/migration.yaml`, (_request, reply) => {
    const result = compiled();
    if (!result) return fail(reply, 'invalid', 'the configuration is invalid: see Configuration');
    return reply
      .type('application/yaml; charset=utf-8')
      .header('Content-Disposition', 'attachment; filename="checkbridge-resources.yaml"')
      .send(formatResources(result.resources, 'yaml'));
  });
}
