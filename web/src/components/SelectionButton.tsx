/**
 * A button that acts on the selected rows (or items, groups, parameters). With nothing selected
 * it is not silently disabled: a click says "Select an item, group or params first"
 * (docs/decisions.md#select-first). `disabled` stays for other reasons (e.g. a read-only row).
 */
import { App, Button, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';

export interface SelectionButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** How many are selected. */
  count: number;
  /** Runs only with a selection. */
  onClick: () => void;
}

export default function SelectionButton({ count, onClick, ...rest }: SelectionButtonProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Button
      {...rest}
      onClick={() => {
        if (count === 0) void message.warning(t('com_select_first'));
        else onClick();
      }}
    />
  );
}
