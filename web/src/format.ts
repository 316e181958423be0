export const STATUS_NAMES = ['OK', 'Warning', 'Critical', 'Unknown'];
export const statusClass = (status: number) => (status >= 0 && status <= 2 ? status : 3);
export const statusName = (status: number) => STATUS_NAMES[statusClass(status)]!;

export function age(seconds: number | null | undefined, nowS = Date.now() / 1000): string {
  if (!seconds) return 'never';
  const delta = Math.max(0, Math.round(nowS - seconds));
  if (delta < 60) return `${delta}s ago`;
  if (delta < 3600) return `${Math.floor(delta / 60)}m ago`;
  if (delta < 86400) return `${Math.floor(delta / 3600)}h ${Math.floor((delta % 3600) / 60)}m ago`;
  return `${Math.floor(delta / 86400)}d ago`;
}

export const when = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000).toLocaleString() : '—');
