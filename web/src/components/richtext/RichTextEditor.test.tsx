import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import '../../i18n';
import RichTextEditor from './RichTextEditor';
import RichTextView from './RichTextView';

// jsdom has no layout: ProseMirror's scroll-into-view asks ranges and nodes for rectangles.
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
const zeroRect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) }) as DOMRect;
Range.prototype.getClientRects = noRects;
Range.prototype.getBoundingClientRect = zeroRect;
(Text.prototype as unknown as { getClientRects: () => DOMRectList }).getClientRects = noRects;
document.elementFromPoint = () => null;

let n = 0;
vi.mock('../../services/storage', async (orig) => ({
  ...(await orig<typeof import('../../services/storage')>()),
  uploadObject: vi.fn(async (file: File) => ({ objectKey: `images/${file.name}-${++n}.png`, url: `https://s.example/${file.name}?sig=1`, size: file.size, contentType: 'image/png', downloadFileName: '' })),
}));

function Harness({ initial, onValue, images }: { initial: string; onValue: (v: string) => void; images?: boolean }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <RichTextEditor
        value={value}
        images={images}
        testId="rt"
        placeholder="Write here"
        onChange={(v) => {
          setValue(v);
          onValue(v);
        }}
      />
      <button onClick={() => setValue('<p>reset</p>')}>reset</button>
    </>
  );
}

const wrap = (ui: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>{ui}</App>
    </QueryClientProvider>,
  );


describe('RichTextEditor opening a stored text', () => {
  it('reports no change until the text is edited (stored HTML the editor normalises, lists, headings)', async () => {
    const onValue = vi.fn();
    const stored = '<h2>Cause</h2><p>It stopped. 充电桩过温保护后自动恢复。</p><h2>Remedy</h2><ul><li>Check the air inlet.</li><li>Replace the fan.</li></ul>';
    render(
      <QueryClientProvider client={new QueryClient()}>
        <App>
          <Harness initial={stored} onValue={onValue} />
        </App>
      </QueryClientProvider>,
    );
    const box = await screen.findByTestId('rt');
    const pm = box.querySelector('.ProseMirror') as HTMLElement;
    await act(async () => {
      pm.focus();
      fireEvent.click(pm);
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(onValue.mock.calls.map((c) => c[0])).toEqual([]);
  });
});

describe('RichTextEditor', () => {
  it('shows the value, the placeholder when empty, and a value set from outside', async () => {
    const { container } = wrap(<Harness initial="" onValue={() => {}} />);
    expect(screen.getByText('Write here')).toBeTruthy();
    fireEvent.click(screen.getByText('reset'));
    await waitFor(() => expect(container.querySelector('.ProseMirror')?.innerHTML).toContain('reset'));
    expect(screen.queryByText('Write here')).toBeNull();
  });

  it('keeps the data-key of storage images in its HTML', async () => {
    const { container } = wrap(<Harness initial={'<p>a</p><img data-key="images/x/a.png" src="https://s.example/a.png?sig=1">'} onValue={() => {}} />);
    const img = container.querySelector('.ProseMirror img');
    expect(img?.getAttribute('data-key')).toBe('images/x/a.png');
  });

  it('a toolbar button changes the text and reports HTML through onChange', async () => {
    const seen: string[] = [];
    const { container } = wrap(<Harness initial="<p>hello</p>" onValue={(v) => seen.push(v)} />);
    await waitFor(() => expect(container.querySelector('.ProseMirror')?.innerHTML).toContain('hello'));
    fireEvent.click(screen.getByRole('button', { name: 'Heading 1' }));
    await waitFor(() => expect(seen.at(-1)).toMatch(/^<h1>hello<\/h1>/));
    expect(screen.getByRole('button', { name: 'Heading 1' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('the insert dialog requires an image, then inserts each upload with its key', async () => {
    const seen: string[] = [];
    wrap(<Harness initial="<p>x</p>" images onValue={(v) => seen.push(v)} />);
    fireEvent.click(screen.getByTestId('rt-image'));
    await screen.findByTestId('richtext-image-modal');
    fireEvent.click(screen.getByTestId('richtext-image-ok'));
    await screen.findByTestId('richtext-image-required');
    const input = document.querySelector('[data-testid=richtext-image-modal] input[type=file]') as HTMLInputElement;
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File(['a'], 'one.png', { type: 'image/png' })] } });
    });
    await waitFor(() => expect(document.querySelector('[data-testid=richtext-image-modal] img')).toBeTruthy());
    fireEvent.click(screen.getByTestId('richtext-image-ok'));
    await waitFor(() => expect(seen.at(-1) ?? '').toMatch(/<img[^>]*data-key="images\/one\.png-\d+\.png"/));
  });

  it('RichTextView renders the given HTML', () => {
    const { container } = render(<RichTextView html="<p><b>hi</b></p>" testId="v" />);
    expect(container.querySelector('[data-testid=v] b')?.textContent).toBe('hi');
  });
});
