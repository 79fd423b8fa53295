/**
 * The one confirm-action helper: runs a change, shows success, refreshes the lists named by
 * `invalidate`, and shows a 20013 refusal (which the request layer only logs) as an error.
 * Other failures are toasted by the request layer already.
 */
import { App } from 'antd';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { isCancelled, NO_PERMISSION_CODE, RequestError } from '../services/request';

export interface ActionOptions {
  /** Success message; default "Done". false: none. */
  success?: string | false;
  /** Query keys (or their prefixes) to refresh afterwards: the factories beside each service (services/<domain>.ts). */
  invalidate?: readonly QueryKey[];
  onDone?: () => void;
}

export interface ConfirmOptions extends ActionOptions {
  title: ReactNode;
  content?: ReactNode;
  danger?: boolean;
  okText?: string;
}

/** A refusal the request layer does not toast (20013). */
export function refusalMessage(e: unknown): string | null {
  if (e instanceof RequestError && e.code === NO_PERMISSION_CODE) return e.message;
  return null;
}

export function useActions() {
  const { modal, message } = App.useApp();
  const { t } = useTranslation();
  const qc = useQueryClient();

  const run = async (fn: () => Promise<unknown>, o: ActionOptions = {}): Promise<boolean> => {
    try {
      await fn();
    } catch (e) {
      if (isCancelled(e)) return false;
      const refusal = refusalMessage(e);
      if (refusal) void message.error(refusal);
      return false;
    }
    if (o.success !== false) void message.success(o.success ?? t('com_msg_done'));
    await Promise.all((o.invalidate ?? []).map((k) => qc.invalidateQueries({ queryKey: k })));
    o.onDone?.();
    return true;
  };

  const confirm = (fn: () => Promise<unknown>, o: ConfirmOptions) => {
    modal.confirm({
      title: o.title,
      content: o.content,
      okText: o.okText ?? t('com_ok'),
      cancelText: t('com_cancel'),
      okButtonProps: { danger: o.danger, 'data-testid': 'confirm-ok' } as { danger?: boolean },
      onOk: () => run(fn, o),
    });
  };

  return { run, confirm };
}
