import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import FormDrawer from '../../../../components/FormDrawer';
import PasswordFields from '../../../../components/PasswordFields';
import { useActions } from '../../../../hooks/useActions';
import { setUserPassword, setUserStatus, USER_DISABLED, USER_ENABLED, userKeys } from '../../../../services/user';
import type { User } from '../../../../services/typings';

/** Enable/disable with confirmation and the set-password drawer of a user (list and detail). */
export function useUserActions() {
  const { t } = useTranslation();
  const { confirm, run } = useActions();
  const [pwUser, setPwUser] = useState<User | null>(null);
  const toggle = (u: User) => {
    const enable = u.status !== USER_ENABLED;
    confirm(() => setUserStatus([u.id], enable ? USER_ENABLED : USER_DISABLED), {
      title: t(enable ? 'user.confirmEnable' : 'user.confirmDisable', { name: u.userName }),
      invalidate: [userKeys.list, userKeys.details],
    });
  };
  const passwordDrawer = (
    <FormDrawer<{ password: string }>
      open={!!pwUser}
      title={t('user.setPassword', { name: pwUser?.userName ?? '' })}
      onClose={() => setPwUser(null)}
      onSubmit={(v) => run(() => setUserPassword(pwUser!.id, v.password), { success: t('user.passwordSet') })}
      testId="user-password-form"
    >
      <PasswordFields />
    </FormDrawer>
  );
  return { toggle, setPassword: setPwUser, passwordDrawer };
}
