/**
 * Import parameters: reads a JSON file (at most 5 MB) into the device's items to set; the caller
 * opens its confirmation (the set dialog) with them. Nothing is sent to the device here.
 */
import { useState } from 'react';
import { App, Button, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { fileToBase64 } from '../../../services/download';
import { importParams, type ConfigValue } from '../../../services/fleet';
import { PARAM_FILE_ACCEPT, paramFileProblem } from './paramFile';

export default function ParamImportButton({ deviceId, onRead }: { deviceId: number; onRead(items: ConfigValue[]): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const read = async (file: File) => {
    const problem = paramFileProblem(file);
    if (problem) {
      void message.error(t(problem));
      return;
    }
    setBusy(true);
    try {
      onRead(await importParams(deviceId, file.name, await fileToBase64(file)));
    } catch {
      /* the request layer has shown the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Upload
      accept={PARAM_FILE_ACCEPT}
      showUploadList={false}
      beforeUpload={(f) => {
        void read(f);
        return false;
      }}
    >
      <Button icon={<UploadOutlined />} loading={busy} data-testid="config-import">
        {t('config.import')}
      </Button>
    </Upload>
  );
}
