/** The message of a v2 error body (`{"message","code"}`, or the middleware's `{"Message","Code"}`), else the raw text. */
export function errorBodyMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; Message?: unknown } | null;
    const message = body?.message ?? body?.Message;
    if (typeof message === 'string') return message;
  } catch {
    /* not JSON */
  }
  return text.trim();
}
