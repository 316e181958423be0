// A PostgreSQL DSN as logs, errors and API bodies may show it: the password gone, in URL and keyword forms.

/** The password replaced by REDACTED: the URL's user info and `?password=`, or the keyword form's `password=` (quoted, unclosed or bare). */
export function redactDsn(dsn: string): string {
  if (/^postgres(ql)?:\/\//i.test(dsn.trim())) {
    try {
      const url = new URL(dsn.trim());
      if (url.password) url.password = 'REDACTED';
      for (const key of [...url.searchParams.keys()]) if (key.toLowerCase() === 'password') url.searchParams.set(key, 'REDACTED');
      return url.toString();
    } catch {
      return 'postgres://(unreadable)';
    }
  }
  return dsn.replace(/(password\s*=\s*)('(?:[^'\\]|\\.)*'|'.*$|\S*)/gis, '$1REDACTED');
}
