/** Known clients by name: the local client now; keepalives and proxy (JIT) clients feed it later. */
export class ClientRegistry {
  private readonly clients = new Map<string, Record<string, unknown>>();

  upsert(client: Record<string, unknown>): void {
    this.clients.set(String(client.name), client);
  }

  remove(name: string): void {
    this.clients.delete(name);
  }

  get(name: string): Record<string, unknown> | undefined {
    return this.clients.get(name);
  }

  all(): Record<string, unknown>[] {
    return [...this.clients.values()];
  }
}
