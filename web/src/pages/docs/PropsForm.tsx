/**
 * docs/add and docs/update/props/:id — a document's properties (docs/docs-wiki.md). Adding
 * saves the properties first, then opens the editor for the content. Levels 0-5 (0 the
 * highest): the write level may not be lower than the read level, and nobody sets a level its
 * own role could not use. Alarm documents (type 100) name an optional model and their codes.
 */
import { useEffect, useState } from 'react';
import { Card, Form, Input, Radio, Select } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FormPageActions } from '../../components/FormDrawer';
import ImageField from '../../components/ImageField';
import { PageHeader, NotFoundResult } from '../../components/PageHeader';
import { useActions } from '../../hooks/useActions';
import { useCustomerOptions, useModelOptions } from '../../hooks/useOptions';
import Forbidden from '../../components/Forbidden';
import { addDoc, docDetail, docsKeys, updateDoc, type DocPropsInput } from '../../services/docs';
import { isHidden, useCategoryOptions, useLevelOptions, useStatusOptions, useTypeOptions } from './components/shared';

type Values = Omit<DocPropsInput, 'modelId'> & { modelId?: number };

export default function DocPropsForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id) || 0;
  const editing = id > 0;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { run } = useActions();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const type = Form.useWatch('type', form);
  const customers = useCustomerOptions(!editing);
  const models = useModelOptions(type === 100);
  const categories = useCategoryOptions();
  const typeOptions = useTypeOptions();
  const levelOptions = useLevelOptions();
  const statusOptions = useStatusOptions();
  const doc = useQuery({ queryKey: docsKeys.detail(id), queryFn: () => docDetail(id), enabled: editing, retry: false });

  useEffect(() => {
    const d = doc.data;
    if (d)
      form.setFieldsValue({
        title: d.title,
        name: d.name,
        type: d.type,
        categoryId: d.categoryId,
        description: d.description,
        icon: d.icon,
        readLevel: d.readLevel,
        writeLevel: d.writeLevel,
        status: d.status,
        modelId: d.modelId || undefined,
        alarmCodes: d.alarmCodes,
      });
  }, [doc.data, form]);

  if (editing && doc.isError) return isHidden(doc.error) ? <Forbidden /> : <NotFoundResult subTitle={t('docs.notFound')} />;

  const submit = async (v: Values) => {
    setBusy(true);
    const body: DocPropsInput = { ...v, modelId: v.type === 100 ? (v.modelId ?? 0) : 0, alarmCodes: v.type === 100 ? (v.alarmCodes ?? []) : [] };
    let newId = 0;
    const ok = await run(
      async () => {
        if (editing) await updateDoc({ ...body, id });
        else newId = (await addDoc(body)).id;
      },
      { invalidate: [docsKeys.all, docsKeys.list] },
    );
    setBusy(false);
    if (!ok) return;
    await qc.invalidateQueries({ queryKey: docsKeys.all });
    if (editing) void navigate(`/manage/docs/props/${id}`);
    else void navigate(`/manage/docs/update/content/${v.categoryId}/${newId}`, { replace: true });
  };

  return (
    <div data-testid="docs-props-form">
      <PageHeader back title={editing ? t('docs.editProps') : t('docs.add')} />
      <Card size="small" loading={editing && doc.isLoading}>
        <Form<Values>
          form={form}
          layout="vertical"
          style={{ maxWidth: 720 }}
          onFinish={(v) => void submit(v)}
          initialValues={{ type: 101, readLevel: 5, writeLevel: 5, status: 1, alarmCodes: [] }}
        >
          {!editing && customers.length > 1 && (
            <Form.Item name="customerId" label={t('docs.owner')} extra={t('docs.ownerHint')}>
              <Select allowClear showSearch optionFilterProp="label" options={customers} placeholder={t('docs.platform')} data-testid="docs-form-customer" />
            </Form.Item>
          )}
          <Form.Item name="title" label={t('docs.title')} rules={[{ required: true, whitespace: true, message: t('docs.titleRequired') }, { max: 200 }]}>
            <Input data-testid="docs-form-title" />
          </Form.Item>
          <Form.Item name="name" label={t('docs.name')} extra={t('docs.nameHint')} rules={[{ max: 100 }]}>
            <Input data-testid="docs-form-name" />
          </Form.Item>
          <Form.Item name="type" label={t('docs.type')} rules={[{ required: true }]}>
            <Radio.Group options={typeOptions} optionType="button" data-testid="docs-form-type" />
          </Form.Item>
          <Form.Item name="categoryId" label={t('docs.category')} rules={[{ required: true, message: t('docs.categoryRequired') }]}>
            <Select options={categories} showSearch optionFilterProp="label" data-testid="docs-form-category" />
          </Form.Item>
          {type === 100 && (
            <>
              <Form.Item name="modelId" label={t('docs.model')} extra={t('docs.modelHint')}>
                <Select allowClear showSearch optionFilterProp="label" options={models} placeholder={t('docs.anyModel')} />
              </Form.Item>
              <Form.Item name="alarmCodes" label={t('docs.alarmCodes')} extra={t('docs.alarmCodesHint')}>
                <Select mode="tags" tokenSeparators={[',', ' ']} open={false} data-testid="docs-form-codes" />
              </Form.Item>
            </>
          )}
          <Form.Item name="description" label={t('docs.description')} rules={[{ max: 1000 }]}>
            <Input.TextArea rows={3} />
          </Form.Item>
          <Form.Item name="icon" label={t('docs.icon')}>
            <ImageField kind="icon" testId="docs-form-icon" />
          </Form.Item>
          <Form.Item name="readLevel" label={t('docs.readLevel')} extra={t('docs.levelHint')} rules={[{ required: true }]}>
            <Select options={levelOptions} style={{ width: 200 }} data-testid="docs-form-read" />
          </Form.Item>
          <Form.Item
            name="writeLevel"
            label={t('docs.writeLevel')}
            dependencies={['readLevel']}
            rules={[
              { required: true },
              ({ getFieldValue }) => ({
                validator: (_r, v: number) => (v <= getFieldValue('readLevel') ? Promise.resolve() : Promise.reject(new Error(t('docs.writeBelowRead')))),
              }),
            ]}
          >
            <Select options={levelOptions} style={{ width: 200 }} data-testid="docs-form-write" />
          </Form.Item>
          <Form.Item name="status" label={t('docs.status')}>
            <Radio.Group options={statusOptions} />
          </Form.Item>
          <FormPageActions busy={busy} testId="docs-form-save" />
        </Form>
      </Card>
    </div>
  );
}
