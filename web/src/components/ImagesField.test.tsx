import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import '../i18n';
import ImagesField from './ImagesField';

let n = 0;
vi.mock('../services/storage', async (orig) => ({
  ...(await orig<typeof import('../services/storage')>()),
  uploadObject: vi.fn(async (file: File) => ({ objectKey: `images/${file.name}-${++n}.png`, url: '', size: file.size, contentType: 'image/png', downloadFileName: '' })),
  useObjectUrl: () => ({ url: undefined, loading: false, failed: false }),
}));

function Harness({ initial, onValue }: { initial: string[]; onValue: (v: string[]) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <ImagesField
      value={value}
      maxCount={3}
      testId="images"
      onChange={(v) => {
        setValue(v);
        onValue(v);
      }}
    />
  );
}

describe('ImagesField', () => {
  it('appends each uploaded objectKey and keeps only the last maxCount', async () => {
    const seen: string[][] = [];
    const { container } = render(
      <QueryClientProvider client={new QueryClient()}>
        <App>
          <Harness initial={['data:image/png;base64,AAAA', 'https://x.example/b.png']} onValue={(v) => seen.push(v)} />
        </App>
      </QueryClientProvider>,
    );
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    const files = [new File(['a'], 'one.png', { type: 'image/png' }), new File(['b'], 'two.png', { type: 'image/png' })];
    await act(async () => {
      fireEvent.change(input, { target: { files } });
    });
    // both uploads land on the latest list: the data: URL (the earliest) is dropped
    const short = (v?: string[]) => (v ?? []).map((k) => k.replace(/-\d+\.png$/, ''));
    await waitFor(() => expect(short(seen.at(-1))).toEqual(['https://x.example/b.png', 'images/one.png', 'images/two.png']));
    expect(seen.every((v) => v.length <= 3)).toBe(true);
  });
});
