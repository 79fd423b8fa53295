/**
 * Uploads files of one kind for a form field (services/storage.ts): progress per file while
 * they are sent, and refusals (the browser's rule check or the server's) shown as a toast.
 */
import { useCallback, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { uploadErrorMessage, uploadObject, type Uploaded } from '../services/storage';
import type { UploadKind } from '../utils/uploadRules';

let seq = 0;

/** `requiredName`: every file must have exactly this name (utils/uploadRules.ts, checkUpload). */
export function useUpload(kind: UploadKind, requiredName?: string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [progress, setProgress] = useState<Record<string, number>>({});

  const upload = useCallback(
    async (file: File): Promise<Uploaded | null> => {
      const id = String(++seq);
      const set = (p?: number) =>
        setProgress((cur) => {
          const next = { ...cur };
          if (p === undefined) delete next[id];
          else next[id] = p;
          return next;
        });
      set(0);
      try {
        return await uploadObject(file, kind, { onProgress: set, requiredName });
      } catch (e) {
        const m = uploadErrorMessage(e, (k, p) => t(k, p));
        if (m) void message.error(m);
        return null;
      } finally {
        set(undefined);
      }
    },
    [kind, requiredName, t, message],
  );

  const percents = Object.values(progress);
  return { upload, percents, busy: percents.length > 0 };
}
