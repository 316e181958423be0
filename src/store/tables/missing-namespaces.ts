import type { SqlDatabase } from '../sql/database.js';

/** Checks stored in a namespace that does not exist (the 6.2.0 rule), on an open store of either engine, its tables migrated already. */
export function missingNamespaceChecks(db: SqlDatabase): { check: string; namespace: string }[] {
  return db
    .prepare(
      `SELECT name AS "check", namespace FROM v2_resources c WHERE kind = 'CheckConfig' AND namespace != 'default'
       AND NOT EXISTS (SELECT 1 FROM v2_resources n WHERE n.kind = 'Namespace' AND n.namespace = '' AND n.name = c.namespace)
       ORDER BY namespace, name`,
    )
    .all() as { check: string; namespace: string }[];
}

export const missingNamespacesMessage = (found: readonly { check: string; namespace: string }[]) =>
  `checks reference namespaces that do not exist: ${found.map((f) => `check ${f.check} in namespace ${f.namespace}`).join(', ')}; remove those checks or recreate their namespaces`;
