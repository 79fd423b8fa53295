/** Fields of a device model and of its items (docs/decisions.md#device-models). */
import { Checkbox, Form, Input, InputNumber, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import ImageField from '../../../../components/ImageField';
import ImagesField from '../../../../components/ImagesField';
import { CONTROL_LEVELS, MODEL_CONTROL_TYPES, DEVICE_TYPES, LEVELS, type ItemInput, type ItemKind } from '../../../../services/deviceModel';
import { DATA_TYPES, rangeError } from '../../../../utils/dataRange';

export function ModelFields({ parents }: { parents: { value: number; label: string }[] }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="name" label={t('model.name')} rules={[{ required: true, whitespace: true, message: t('com_value_required') }, { max: 64 }]}>
        <Input data-testid="model-name" />
      </Form.Item>
      <Form.Item name="deviceType" label={t('model.deviceType')} rules={[{ required: true, message: t('com_value_required') }]}>
        <Select options={DEVICE_TYPES.map((v) => ({ value: v, label: t(`model.type.${v}`) }))} data-testid="model-type" />
      </Form.Item>
      <Form.Item name="parentId" label={t('model.parent')}>
        <Select allowClear showSearch optionFilterProp="label" options={parents} />
      </Form.Item>
      <Form.Item name="vendor" label={t('model.vendor')} rules={[{ max: 64 }]}>
        <Input />
      </Form.Item>
      <Space size="large">
        <Form.Item name="supportsSsh" valuePropName="checked">
          <Checkbox>{t('model.supportsSsh')}</Checkbox>
        </Form.Item>
        <Form.Item name="supportsWeb" valuePropName="checked">
          <Checkbox>{t('model.supportsWeb')}</Checkbox>
        </Form.Item>
      </Space>
      <Form.Item name="icon" label={t('model.icon')}>
        <ImageField kind="icon" testId="model-icon" />
      </Form.Item>
      <Form.Item name="images" label={t('model.images')}>
        <ImagesField maxCount={10} testId="model-images" />
      </Form.Item>
    </>
  );
}

const levelOptions = (levels: number[]) => levels.map((v) => ({ value: v, label: String(v) }));

/** Config and param items share their fields; control items have their own. */
export function ItemFields({ kind, codeTaken }: { kind: ItemKind; codeTaken(code: number): boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<ItemInput>();
  const dataType = Form.useWatch('dataType', form) as string | undefined;
  const req = { required: true, message: t('com_value_required') };
  if (kind === 'control')
    return (
      <>
        <Form.Item name="controlName" label={t('item.controlName')} rules={[{ ...req, whitespace: true }, { max: 100 }]}>
          <Input data-testid="item-controlName" />
        </Form.Item>
        <Form.Item
          name="controlTypeCode"
          label={t('item.controlTypeCode')}
          rules={[req, { validator: (_, v: number) => (v && codeTaken(v) ? Promise.reject(new Error(t('item.codeTaken'))) : Promise.resolve()) }]}
        >
          <Select options={MODEL_CONTROL_TYPES.map((v) => ({ value: v, label: `${v} · ${t(`control.type.${v}`)}` }))} data-testid="item-controlType" />
        </Form.Item>
        <Form.Item name="controlLevel" label={t('item.controlLevel')} rules={[req]}>
          <Select options={levelOptions(CONTROL_LEVELS)} />
        </Form.Item>
        <Form.Item name="param1Name" label={t('item.param1Name')} rules={[{ max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="param2Name" label={t('item.param2Name')} rules={[{ max: 64 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="displayPriority" label={t('item.displayPriority')} rules={[{ type: 'number', min: 0, max: 9999 }]}>
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
      </>
    );
  return (
    <>
      <Form.Item name="configGroup" label={t('item.configGroup')} rules={[{ max: 100 }]}>
        <Input />
      </Form.Item>
      <Form.Item name="configItem" label={t('item.configItem')} rules={[{ ...req, whitespace: true }, { max: 100 }]}>
        <Input data-testid="item-configItem" />
      </Form.Item>
      <Form.Item name="protocolKey" label={t('item.protocolKey')} rules={[{ ...req, whitespace: true }, { max: 100 }]}>
        <Input data-testid="item-protocolKey" />
      </Form.Item>
      <Space wrap size="large">
        <Form.Item name="displayPriority" label={t('item.displayPriority')} rules={[{ type: 'number', min: 0, max: 9999 }]}>
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
        <Form.Item name="readLevel" label={t('item.readLevel')} rules={[req]}>
          <Select style={{ width: 100 }} options={levelOptions(LEVELS)} />
        </Form.Item>
        <Form.Item name="writeLevel" label={t('item.writeLevel')} rules={[req]}>
          <Select style={{ width: 100 }} options={levelOptions(LEVELS)} />
        </Form.Item>
        <Form.Item name="batch" label={t('item.batch')} valuePropName="checked">
          <Checkbox />
        </Form.Item>
      </Space>
      <DataTypeRange dataType={dataType} />
    </>
  );
}

/** Data type + range with the rules of docs/decisions.md#levels (shared by model items and catalogue items). */
export function DataTypeRange({ dataType }: { dataType?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="dataType" label={t('item.dataType')} rules={[{ required: true, message: t('com_value_required') }]}>
        <Select options={DATA_TYPES.map((v) => ({ value: v, label: t(`dataType.${v}`) }))} data-testid="item-dataType" />
      </Form.Item>
      <Form.Item
        name="dataRange"
        label={t('item.dataRange')}
        dependencies={['dataType']}
        extra={dataType ? t(`range.hint.${dataType}`) : undefined}
        rules={[
          ({ getFieldValue }) => ({
            validator: (_, v: string) => {
              const err = rangeError(getFieldValue('dataType') as string, v);
              return err ? Promise.reject(new Error(t(err))) : Promise.resolve();
            },
          }),
        ]}
      >
        {dataType === 'enum' ? <Input.TextArea rows={4} data-testid="item-dataRange" /> : <Input disabled={dataType === 'bool'} data-testid="item-dataRange" />}
      </Form.Item>
    </>
  );
}
