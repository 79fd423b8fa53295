/**
 * The site devices' category filter (pure, tested in categoryOptions.test.ts): "All" with the
 * site's total, then each category the site has devices of, with its count; a category with none
 * is left out unless it is the one chosen.
 */
export interface CategoryCount {
  code: number;
  label: string;
  /** undefined while the counts load. */
  count: number | undefined;
}

export interface CategoryOption {
  value: number;
  label: string;
  count: number | undefined;
}

export function categoryOptions(rows: readonly CategoryCount[], chosen: number, allLabel: string, format: (n: number) => string = String): CategoryOption[] {
  const loaded = rows.some((r) => r.count !== undefined);
  const total = loaded ? rows.reduce((a, r) => a + (r.count ?? 0), 0) : undefined;
  const text = (label: string, n: number | undefined) => (n === undefined ? label : `${label} (${format(n)})`);
  return [
    { value: 0, label: text(allLabel, total), count: total },
    ...rows.filter((r) => (r.count ?? 0) > 0 || r.code === chosen).map((r) => ({ value: r.code, label: text(r.label, r.count), count: r.count })),
  ];
}
