/**
 * A period for a dashboard: day, week (Monday to Sunday), month, year, or custom whole days
 * (at most 366), aligned in the configured time zone. Controlled (`value`/`onChange`) or not
 * (starts at this month). The pickers show the zone's wall clock, as utils/time.ts does.
 */
import { useState } from 'react';
import { DatePicker, Segmented, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { currentPeriod, customRange, MAX_RANGE_DAYS, PERIODS, periodRange, rangeText, type Period, type PeriodValue } from '../../utils/period';
import { getTimeZone, toPicker } from '../../utils/time';

export type { Period, PeriodValue };

export interface PeriodPickerProps {
  value?: PeriodValue;
  onChange?(v: PeriodValue): void;
  tz?: string;
  testId?: string;
}

const PICKER = { day: 'date', week: 'week', month: 'month', year: 'year' } as const;
const FORMAT = { day: 'YYYY-MM-DD', month: 'YYYY-MM', year: 'YYYY' } as const;
const DAY_MS = 86_400_000;

/** The zone's instant of a picked wall-clock day (a day in the picked week, month or year). */
function pickedAnchor(d: Dayjs, period: Period, tz: string): number {
  // week pickers highlight the locale's week (Sunday-first in English): take its middle day,
  // whose Monday-first week is the one meant
  const day = period === 'week' ? d.startOf('week').add(3, 'day') : d;
  return customRange(day, day, tz)[0];
}

export default function PeriodPicker({ value, onChange, tz = getTimeZone(), testId = 'period-picker' }: PeriodPickerProps) {
  const { t } = useTranslation();
  const [own, setOwn] = useState<PeriodValue>(() => currentPeriod('month', Date.now(), tz));
  const v = value ?? own;
  const set = (next: PeriodValue) => {
    if (!value) setOwn(next);
    onChange?.(next);
  };
  const choosePeriod = (p: Period) => {
    if (p === v.period) return;
    if (p === 'custom') return set({ ...v, period: p });
    const now = Date.now();
    const anchor = now >= v.start && now < v.end ? now : v.start;
    const [start, end] = periodRange(p, anchor, tz);
    set({ period: p, start, end });
  };
  return (
    <Space wrap data-testid={testId} data-period={v.period} data-start={v.start} data-end={v.end}>
      <Segmented<Period>
        value={v.period}
        onChange={choosePeriod}
        options={PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
        data-testid={`${testId}-period`}
      />
      {v.period === 'custom' ? (
        <DatePicker.RangePicker
          allowClear={false}
          value={[toPicker(v.start), toPicker(v.end - 1)]}
          disabledDate={(d, info) => !!info?.from && Math.abs(d.startOf('day').diff(info.from.startOf('day'))) >= MAX_RANGE_DAYS * DAY_MS}
          onChange={(r) => {
            if (!r?.[0] || !r[1]) return;
            const [start, end] = customRange(r[0], r[1], tz);
            set({ period: 'custom', start, end });
          }}
          title={t('period.tooLong', { days: MAX_RANGE_DAYS })}
          data-testid={`${testId}-range`}
        />
      ) : (
        <DatePicker
          picker={PICKER[v.period]}
          allowClear={false}
          value={toPicker(v.start)}
          format={v.period === 'week' ? () => rangeText(v.start, v.end, tz) : FORMAT[v.period]}
          style={v.period === 'week' ? { width: 230 } : undefined}
          onChange={(d: Dayjs | null) => {
            if (!d) return;
            const [start, end] = periodRange(v.period, pickedAnchor(d, v.period, tz), tz);
            set({ period: v.period, start, end });
          }}
          data-testid={`${testId}-date`}
        />
      )}
    </Space>
  );
}
