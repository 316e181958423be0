// The most transactions a database had open at once while watched (open-transactions-worker.ts polls).
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';

export interface TransactionWatch {
  /** Stops watching: the most transactions seen open at once. */
  stop(): Promise<number>;
}

export async function watchOpenTransactions(url: string, database: string): Promise<TransactionWatch> {
  const worker = new Worker(new URL('./open-transactions-worker.js', import.meta.url), { workerData: { url, database } });
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    async stop() {
      const answer = once(worker, 'message');
      worker.postMessage('stop');
      const [most] = (await answer) as [number];
      await worker.terminate();
      return most;
    },
  };
}
