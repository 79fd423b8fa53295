import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import QueryTable from './QueryTable';
import { bounded } from './columns';

interface Row {
  id: number;
  url: string;
  note: string;
}

const answered = { isError: false, isPending: false, isFetching: false, error: null, refetch: () => undefined };
const longURL = 'https://hooks.example.com/a/very/long/path/that/would/widen/the/column';

afterEach(cleanup);

describe('bounded columns', () => {
  it('leaves a column without ellipsis or without a width as it is', () => {
    const plain = { title: 'Note', dataIndex: 'note', key: 'note', width: 120 };
    const unsized = { title: 'URL', dataIndex: 'url', key: 'url', ellipsis: true };
    expect(bounded<Row>(plain)).toBe(plain);
    expect(bounded<Row>(unsized)).toBe(unsized);
  });

  it('a table with its own query bounds an ellipsis column with a width, as lists do, keeping the whole text in the title', () => {
    render(
      <QueryTable<Row>
        query={answered}
        rowKey="id"
        dataSource={[{ id: 1, url: longURL, note: 'n' }]}
        columns={[
          { title: 'URL', dataIndex: 'url', key: 'url', ellipsis: true, width: 200 },
          { title: 'Note', dataIndex: 'note', key: 'note', width: 120, render: (v: string) => <b>{v}!</b> },
        ]}
      />,
    );
    const cell = screen.getByText(longURL);
    expect(cell.className).toBe('cell-ellipsis');
    expect(cell.title).toBe(longURL);
    expect(cell.style.maxWidth).toBe('184px');
    expect(screen.getByText('n!').closest('.cell-ellipsis')).toBeNull();
  });
});
