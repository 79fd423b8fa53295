import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import '../i18n';
import { RequestError } from '../services/request';
import XlsxImportModal, { type XlsxImportTexts } from './XlsxImport';

interface Row {
  row: number;
  message: string;
}

const texts: XlsxImportTexts = {
  title: 'Import',
  hint: 'Fill in the template',
  template: 'Template',
  chooseFile: 'Choose file',
  submit: 'Import now',
  close: 'Close',
  done: (count) => `${count} imported`,
};

function show(upload: ((name: string, content: string) => Promise<{ imported: number }>) | undefined, onImported = vi.fn(async () => undefined)) {
  const template = vi.fn(async () => undefined);
  const view = render(
    <App>
      <XlsxImportModal<Row>
        open
        onClose={() => undefined}
        width={720}
        testId="token-import"
        texts={texts}
        template={template}
        upload={upload}
        onImported={onImported}
        errorRows={(e) => ((e as RequestError).data as { rows: Row[] }).rows}
        rowKey={(r) => `${r.row}`}
        columns={[
          { title: 'Row', dataIndex: 'row', key: 'row' },
          { title: 'Reason', dataIndex: 'message', key: 'message' },
        ]}
      >
        <span data-testid="extra">extra</span>
      </XlsxImportModal>
    </App>,
  );
  return { template, onImported, view };
}

async function pick() {
  const input = screen.getByTestId('token-import-modal').querySelector('input[type=file]') as HTMLInputElement;
  await act(async () => {
    fireEvent.change(input, { target: { files: [new File(['x'], 'in.xlsx')] } });
  });
}

describe('XlsxImportModal', () => {
  it('names its parts by the prefix, shows the page part inside the modal, and waits for upload and a file', async () => {
    const { template } = show(undefined);
    const modal = screen.getByTestId('token-import-modal');
    expect(modal.contains(screen.getByTestId('extra'))).toBe(true);
    expect(modal.contains(screen.getByTestId('token-import-template'))).toBe(true);
    expect(screen.getByTestId('token-import-template').tagName).toBe('BUTTON');
    expect(screen.getByTestId('token-import-file').tagName).toBe('BUTTON');
    expect(screen.getByTestId('token-import-submit').tagName).toBe('BUTTON');
    fireEvent.click(screen.getByTestId('token-import-template'));
    expect(template).toHaveBeenCalledOnce();
    await pick();
    expect((screen.getByTestId('token-import-submit') as HTMLButtonElement).disabled).toBe(true);
  });

  it('lists the bad rows of a failed import, then reports a good one', async () => {
    const upload = vi
      .fn<(name: string, content: string) => Promise<{ imported: number }>>()
      .mockRejectedValueOnce(new RequestError('business', 'bad rows', { data: { rows: [{ row: 3, message: 'bad date' }] } }))
      .mockResolvedValueOnce({ imported: 2 });
    const { onImported } = show(upload);
    await pick();
    fireEvent.click(screen.getByTestId('token-import-submit'));
    await waitFor(() => expect(screen.getByTestId('token-import-rows').textContent).toContain('bad date'));
    expect(screen.getByTestId('token-import-error').textContent).toContain('bad rows');
    expect(upload).toHaveBeenCalledWith('in.xlsx', expect.any(String));
    expect(onImported).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('token-import-submit'));
    await waitFor(() => expect(screen.getByTestId('token-import-done').textContent).toContain('2 imported'));
    expect(screen.queryByTestId('token-import-rows')).toBeNull();
    expect(onImported).toHaveBeenCalledOnce();
  });
});
