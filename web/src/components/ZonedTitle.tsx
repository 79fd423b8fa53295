/** A time column's title with the zone on a second line, over cells that show the clock alone (formatClock). */
import { Typography } from 'antd';
import { zoneNow } from '../utils/time';

/**
 * The zone named once in the header instead of in every cell, so a time column is no wider than
 * its times and key columns stay in view at 1366 and 1440 px (issue 30 items 6 and 19).
 */
export default function ZonedTitle({ title }: { title: string }) {
  const zone = zoneNow();
  return (
    <span data-zone={zone}>
      {title}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, fontWeight: 'normal' }}>
        {zone}
      </Typography.Text>
    </span>
  );
}
