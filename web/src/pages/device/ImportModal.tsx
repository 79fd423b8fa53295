/** Device import from xlsx: template download, upload, and the bad rows in a table (nothing imported). */
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import XlsxImportModal from '../../components/XlsxImport';
import { downloadTemplate, importDevices, importErrorRows, type ImportRowError, deviceKeys } from '../../services/device';

export default function ImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  return (
    <XlsxImportModal<ImportRowError>
      open={open}
      onClose={onClose}
      width={720}
      testId="import"
      texts={{
        title: t('device.import'),
        hint: t('device.importHint'),
        template: t('device.template'),
        chooseFile: t('device.chooseFile'),
        submit: t('device.importSubmit'),
        close: t('com_close'),
        done: (count) => t('device.importDone', { count }),
      }}
      template={downloadTemplate}
      upload={importDevices}
      onImported={async () => {
        await qc.invalidateQueries({ queryKey: deviceKeys.lists });
        await qc.invalidateQueries({ queryKey: deviceKeys.counts });
      }}
      errorRows={importErrorRows}
      rowKey={(r) => `${r.row}:${r.message}`}
      columns={[
        { title: t('device.importRow'), dataIndex: 'row', key: 'row', width: 100 },
        { title: t('device.importReason'), dataIndex: 'message', key: 'message' },
      ]}
    />
  );
}
