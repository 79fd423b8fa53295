/**
 * A table bound to a query: what it shows in place of rows follows the query (nothing while
 * loading, the error with Retry when it failed, "No data" — or `empty` — only for an empty
 * answer: TableState.tsx), so a table fed by a query cannot forget those states. Its columns get
 * the lists' treatment (columns.tsx: an ellipsis column with a width keeps that width).
 */
import type { ReactNode } from 'react';
import { Table } from 'antd';
import type { TableProps } from 'antd/es/table';
import { emptyTextOf, type TableQueryState } from './TableState';
import { bounded } from './columns';

export type QueryTableProps<Row> = Omit<TableProps<Row>, 'locale'> & {
  /** The query whose answer the rows are. */
  query: TableQueryState;
  /** Shown for an answer with no rows instead of "No data". */
  empty?: ReactNode;
};

/** antd's Table with the query's states; `loading` defaults to the query's first load. */
export default function QueryTable<Row extends object>({ query, empty, columns, ...props }: QueryTableProps<Row>) {
  return (
    <Table<Row>
      loading={query.isPending}
      {...props}
      columns={columns?.map((c) => bounded(c))}
      locale={{ emptyText: emptyTextOf(query, empty) }}
    />
  );
}
