/**
 * Add or edit a ticket (docs/tickets.md, "Created from"): from the list, a device's Issues tab
 * (device, site, customer and software version pre-filled) or an alarm of the device's alarm
 * list (title = the alarm's name, occurrence time = its start, priority = its level). The
 * server takes site and customer from the device; without a device (category 4 only) the site
 * or the customer is picked. Loaded lazily: it carries the rich-text editor.
 */
import { useMemo, useState } from 'react';
import { DatePicker, Form, Input, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import FormDrawer from '../../components/FormDrawer';
import RichTextEditor from '../../components/richtext/RichTextEditor';
import { useActions } from '../../hooks/useActions';
import { useCustomerOptions, useSiteOptions } from '../../hooks/useOptions';
import { listDevices, deviceKeys } from '../../services/device';
import { addTicket, CATEGORIES, DEVICE_INDEPENDENT, PRIORITIES, ticketKeys, updateTicket, type Ticket, type TicketInput } from '../../services/ticket';
import { fromPicker, toPicker } from '../../utils/time';
import { registerTexts } from '../../locales/domains';
import { ticketTexts } from '../../locales/domains/ticket';

registerTexts(ticketTexts);

/** The device a new ticket is about (its page pre-fills it). */
export interface TicketDevice {
  id: number;
  sn: string;
  softwareVersion?: string;
  siteId?: number;
  customerId?: number;
}

/** The alarm a new ticket is made from. */
export interface TicketAlarm {
  id: number;
  name: string;
  level: number;
  startedAt: number;
}

export interface TicketDrawerProps {
  open: boolean;
  onClose(): void;
  /** Edit this ticket; else a new one. */
  ticket?: Ticket;
  device?: TicketDevice;
  alarm?: TicketAlarm;
}

type Values = Omit<TicketInput, 'occurredAt'> & { occurredAt?: ReturnType<typeof toPicker> };

function DeviceSelect({ value, onChange, initial }: { value?: number; onChange?: (v?: number) => void; initial?: { id: number; sn: string } }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: deviceKeys.issuePicker(keyword), queryFn: () => listDevices({ keyword, pageSize: 20 }), staleTime: 30_000 });
  const options = useMemo(() => {
    const list = (q.data?.list ?? []).map((d) => ({ value: d.id, label: `${d.sn} · ${d.name}`, sn: d.sn }));
    if (initial && !list.some((o) => o.value === initial.id)) list.unshift({ value: initial.id, label: initial.sn, sn: initial.sn });
    return list;
  }, [q.data, initial]);
  return (
    <Select
      showSearch
      allowClear
      value={value || undefined}
      onChange={(v) => onChange?.(v)}
      filterOption={false}
      onSearch={setKeyword}
      options={options}
      loading={q.isFetching}
      placeholder={t('ticket.devicePlaceholder')}
      data-testid="ticket-device"
    />
  );
}

export default function TicketDrawer({ open, onClose, ticket, device, alarm }: TicketDrawerProps) {
  const { t } = useTranslation();
  const { run } = useActions();
  const navigate = useNavigate();
  const customers = useCustomerOptions(open);
  const initialValues = useMemo<Partial<Values>>(() => {
    if (ticket)
      return {
        title: ticket.title,
        category: ticket.category,
        priority: ticket.priority,
        occurredAt: toPicker(ticket.occurredAt),
        deviceId: ticket.deviceId || undefined,
        siteId: ticket.siteId || undefined,
        customerId: ticket.customerId || undefined,
        softwareVersion: ticket.softwareVersion,
        description: ticket.description ?? '',
        eventId: ticket.eventId,
      };
    return {
      title: alarm?.name ?? '',
      category: 1,
      priority: alarm?.level ?? 1,
      occurredAt: toPicker(alarm?.startedAt ?? Date.now()),
      deviceId: device?.id,
      siteId: device?.siteId,
      customerId: device?.customerId,
      softwareVersion: device?.softwareVersion ?? '',
      description: '',
      eventId: alarm?.id ?? 0,
    };
  }, [ticket, device, alarm]);
  const initialDevice = ticket?.deviceId ? { id: ticket.deviceId, sn: ticket.deviceSn } : device;

  const submit = async (v: Values) => {
    const body: TicketInput = { ...v, occurredAt: v.occurredAt ? fromPicker(v.occurredAt) : 0, deviceId: v.deviceId ?? 0, siteId: v.siteId ?? 0, customerId: v.customerId ?? 0 };
    if (ticket) return run(() => updateTicket({ ...body, id: ticket.id }), { invalidate: [ticketKeys.list, ticketKeys.details] });
    let id = 0;
    const ok = await run(
      async () => {
        id = (await addTicket(body)).id;
      },
      { invalidate: [ticketKeys.list] },
    );
    if (ok) void navigate(`/manage/issue/detail/${id}`);
    return ok;
  };

  return (
    <FormDrawer<Values> open={open} title={ticket ? t('ticket.edit') : t('ticket.add')} initialValues={initialValues} onClose={onClose} onSubmit={submit} width={720} testId="ticket-form">
      {(form) => (
        <>
          <Form.Item name="title" label={t('ticket.title')} rules={[{ required: true, whitespace: true }, { max: 200 }]}>
            <Input data-testid="ticket-title" />
          </Form.Item>
          <Form.Item name="category" label={t('ticket.category')} rules={[{ required: true }]}>
            <Select options={CATEGORIES.map((c) => ({ value: c, label: t(`ticket.category.${c}`) }))} data-testid="ticket-category" />
          </Form.Item>
          <Form.Item name="priority" label={t('ticket.priority')} rules={[{ required: true }]}>
            <Select options={PRIORITIES.map((p) => ({ value: p, label: t(`ticket.priority.${p}`) }))} data-testid="ticket-priority" />
          </Form.Item>
          <Form.Item name="occurredAt" label={t('ticket.occurredAt')} rules={[{ required: true }]}>
            <DatePicker showTime style={{ width: '100%' }} data-testid="ticket-occurred" />
          </Form.Item>
          <Form.Item noStyle shouldUpdate={(a, b) => a.category !== b.category || a.deviceId !== b.deviceId || a.customerId !== b.customerId}>
            {() => {
              const category = form.getFieldValue('category') as number;
              const deviceId = form.getFieldValue('deviceId') as number | undefined;
              return (
                <>
                  <Form.Item name="deviceId" label={t('ticket.device')} rules={[{ required: category !== DEVICE_INDEPENDENT, message: t('ticket.deviceRequired') }]}>
                    <DeviceSelect initial={initialDevice} />
                  </Form.Item>
                  {!deviceId && (
                    <>
                      <Form.Item name="customerId" label={t('ticket.customer')}>
                        <Select allowClear options={customers} onChange={() => form.setFieldValue('siteId', undefined)} />
                      </Form.Item>
                      <SiteField customerId={form.getFieldValue('customerId') as number | undefined} />
                    </>
                  )}
                </>
              );
            }}
          </Form.Item>
          <Form.Item name="softwareVersion" label={t('ticket.softwareVersion')} rules={[{ max: 64 }]}>
            <Input placeholder={t('ticket.softwareVersionHint')} />
          </Form.Item>
          <Form.Item name="eventId" hidden>
            <Input />
          </Form.Item>
          <Form.Item name="description" label={t('ticket.description')}>
            <RichTextEditor images testId="ticket-description" minHeight={180} />
          </Form.Item>
        </>
      )}
    </FormDrawer>
  );
}

function SiteField({ customerId }: { customerId?: number }) {
  const { t } = useTranslation();
  const sites = useSiteOptions(customerId);
  return (
    <Form.Item name="siteId" label={t('ticket.site')}>
      <Select allowClear options={sites} />
    </Form.Item>
  );
}
