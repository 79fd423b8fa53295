/** Token import from xlsx for one customer: template, upload, the bad rows by row and column (nothing imported). */
import { useState } from 'react';
import { Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import XlsxImportModal from '../../components/XlsxImport';
import { customerOptions, customerKeys } from '../../services/customer';
import { RequestError } from '../../services/request';
import { downloadTokenTemplate, importTokens, tokenKeys, type TokenRowError } from '../../services/token';

function rowsOf(e: unknown): TokenRowError[] {
  if (!(e instanceof RequestError)) return [];
  const rows = (e.data as { rows?: unknown } | null | undefined)?.rows;
  return Array.isArray(rows) ? (rows as TokenRowError[]).slice().sort((a, b) => a.row - b.row) : [];
}

export default function ImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const customers = useQuery({ queryKey: customerKeys.options, queryFn: customerOptions, enabled: open });
  const [customerId, setCustomerId] = useState<number | undefined>();
  const only = customers.data?.length === 1 ? customers.data[0].id : undefined;
  const customer = customerId ?? only;

  return (
    <XlsxImportModal<TokenRowError>
      open={open}
      onClose={onClose}
      width={760}
      testId="token-import"
      texts={{
        title: t('token.import'),
        hint: t('token.importHint'),
        template: t('token.template'),
        chooseFile: t('token.chooseFile'),
        submit: t('token.importSubmit'),
        close: t('com_cancel'),
        done: (count) => t('token.importDone', { count }),
      }}
      template={downloadTokenTemplate}
      // no import until a customer is chosen
      upload={customer ? (fileName, content) => importTokens(customer, fileName, content) : undefined}
      onImported={() => qc.invalidateQueries({ queryKey: tokenKeys.list })}
      errorRows={rowsOf}
      rowKey={(r) => `${r.row}:${r.field}:${r.message}`}
      columns={[
        { title: t('token.importRow'), dataIndex: 'row', key: 'row', width: 80 },
        { title: t('token.importField'), dataIndex: 'field', key: 'field', width: 180 },
        { title: t('token.importReason'), dataIndex: 'message', key: 'message' },
      ]}
    >
      <Select
        style={{ width: 320 }}
        placeholder={t('token.pickCustomer')}
        value={customer}
        onChange={setCustomerId}
        showSearch
        optionFilterProp="label"
        options={(customers.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
        data-testid="token-import-customer"
      />
    </XlsxImportModal>
  );
}
