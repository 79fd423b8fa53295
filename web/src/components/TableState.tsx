/**
 * What a table shows in place of rows: while the query is loading, nothing (the spinner is
 * enough — antd's "No data" under it reads as an empty answer); when it failed, a localised
 * error with the reason and a Retry button; only an answer with no rows says "No data".
 */
import type { ReactNode } from 'react';
import { Button, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface TableQueryState {
  isError: boolean;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  refetch(): unknown;
}

/** The error state of a list whose request failed. */
export function ListError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  const reason = error instanceof Error && error.message ? error.message : undefined;
  return (
    <div role="alert" data-testid="list-error" style={{ padding: '24px 0', textAlign: 'center' }}>
      <Typography.Text type="danger" strong>
        {t('list.loadFailed')}
      </Typography.Text>
      {reason && (
        <div>
          <Typography.Text type="secondary" data-testid="list-error-reason">
            {reason}
          </Typography.Text>
        </div>
      )}
      <div style={{ marginTop: 12 }}>
        <Button onClick={onRetry} data-testid="list-retry">
          {t('list.retry')}
        </Button>
      </div>
    </div>
  );
}

/**
 * The table's `emptyText` for a query's state: error, nothing while loading, "No data" (or
 * `empty`) only for an empty answer. Tables use it through QueryTable or ListPage.
 */
export function emptyTextOf(q: TableQueryState, empty?: ReactNode): ReactNode {
  if (q.isError) return <ListError error={q.error} onRetry={() => void q.refetch()} />;
  if (q.isPending || q.isFetching) return <div data-testid="list-loading" style={{ minHeight: 80 }} />;
  return empty ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} data-testid="list-empty" />;
}
