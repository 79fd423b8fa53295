/**
 * Column treatments shared by every table of the console: ListPage's lists and QueryTable's
 * tables with their own query.
 */
import type { ReactNode } from 'react';
import type { ColumnsType } from 'antd/es/table';

/** Horizontal padding of a middle-size table cell, both sides. */
const CELL_PADDING = 16;

/**
 * A column with `ellipsis` and a width keeps that width: the table scrolls by its content's width
 * (max-content), so a cut cell must be bounded by its content, or long site and customer names
 * widen the column and push the time columns out of view at 1440 px (issue 30 item 6). The whole
 * text stays in the cell's title.
 */
export function bounded<Row>(c: ColumnsType<Row>[number]): ColumnsType<Row>[number] {
  if (!c.ellipsis || typeof c.width !== 'number' || 'children' in c) return c;
  const { render } = c;
  const maxWidth = c.width - CELL_PADDING;
  return {
    ...c,
    render: (v: unknown, r: Row, i: number) => (
      <div className="cell-ellipsis" style={{ maxWidth }} title={typeof v === 'string' ? v : undefined}>
        {render ? (render(v, r, i) as ReactNode) : (v as ReactNode)}
      </div>
    ),
  };
}
