/** What every page gets: a counter bumped on each live change notice, and the rest of the hash route. */
export interface PageProps {
  generation: number;
  rest: string;
}
