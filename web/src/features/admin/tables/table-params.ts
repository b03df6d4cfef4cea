/**
 * An admin table keeps its filter, search, sort and page in the URL beside ?tab=, so a reload or
 * a shared link shows the same rows. The page is counted from 1 there, from 0 by the API.
 */

/** The page asked for, from 0; anything but a whole number from 1 up is the first page. */
export function readPage(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page >= 1 ? page - 1 : 0;
}

/** One of `allowed`, or null when the parameter is missing or unknown (an old or hand-edited link still opens). */
export function readChoice<Choice extends string>(params: URLSearchParams, name: string, allowed: readonly Choice[]): Choice | null {
  const value = params.get(name);
  return allowed.find((choice) => choice === value) ?? null;
}

/**
 * The URL for a table's state: the current tab, each value that is set (defaults left out), and
 * the page from 1 when past the first.
 */
export function tableParams(current: URLSearchParams, values: Record<string, string | null>, page: number): URLSearchParams {
  const params = new URLSearchParams();
  const tab = current.get('tab');
  if (tab) params.set('tab', tab);
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value);
  if (page > 0) params.set('page', String(page + 1));
  return params;
}
