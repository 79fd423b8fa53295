/**
 * A range of whole days in the console's time zone (the access statistics' days): at most
 * MAX_DAYS, none after today in that zone (shape.ts validRange). The picker's dates are wall
 * dates: only their YYYY-MM-DD is read, never the browser's zone.
 */
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { validRange, type DayRange } from '../shape';

const FORMAT = 'YYYY-MM-DD';

export default function DayRangePicker({ value, onChange }: { value: DayRange; onChange(r: DayRange): void }) {
  const now = Date.now();
  return (
    <DatePicker.RangePicker
      allowClear={false}
      format={FORMAT}
      value={[dayjs(value.from, FORMAT), dayjs(value.to, FORMAT)]}
      disabledDate={(d: Dayjs, info?: { from?: Dayjs }) => {
        const day = d.format(FORMAT);
        const from = info?.from?.format(FORMAT) ?? day;
        // with a first day picked, the other end must make a range the statistics accept
        return !validRange(from <= day ? { from, to: day } : { from: day, to: from }, now);
      }}
      onChange={(v) => {
        if (v?.[0] && v[1]) onChange({ from: v[0].format(FORMAT), to: v[1].format(FORMAT) });
      }}
      data-testid="openapi-range"
    />
  );
}
