import type { ComponentChildren } from 'preact';
import { Notice } from '../ui';

/** A section named by its own heading, with its load error (if any) first. */
export function Section({
  id,
  title,
  error,
  class: className,
  children,
}: {
  id: string;
  title: ComponentChildren;
  error?: string | null;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <section aria-labelledby={id} class={className}>
      <h2 id={id}>{title}</h2>
      {error && <Notice>{error}</Notice>}
      {children}
    </section>
  );
}
