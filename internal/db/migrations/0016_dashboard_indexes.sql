-- Dashboards at 100,000 devices and 10 million events (issue 10, docs/benchmarks.md).

-- Open events by customer. A customer-scoped home overview counts open events with
-- `status = 0 AND customer_id IN (...)`; idx_device_event_open_site leads with site_id, so both
-- databases read the customer's whole history from idx_device_event_customer instead (about a
-- million entries per customer at 10 million events; PostgreSQL ANDs it with the open-site
-- bitmap) and the call took 100-200 ms on PostgreSQL and seconds on SQLite. Open events are few
-- (about 10,000): this index holds only them.
CREATE INDEX idx_device_event_open_customer ON device_event (customer_id, kind, level) WHERE status = 0;

-- The device ranking of a customer or site over a range that is not one bucket sums the rows
-- of several buckets (stats.rankDevices). The scoped ranking indexes did not hold device_id,
-- so each of those rows (tens of thousands over 90 days) was a table lookup: 360 ms p50 and
-- 1.4 s cold on PostgreSQL. With device_id last they answer from the index alone; the order a
-- single-bucket ranking reads (faults, then device) is unchanged.
DROP INDEX idx_stat_device_customer;
CREATE INDEX idx_stat_device_customer ON stat_device (grain, customer_id, bucket, faults, device_id);
DROP INDEX idx_stat_device_site;
CREATE INDEX idx_stat_device_site ON stat_device (grain, site_id, bucket, faults, device_id);

-- Root's home overview groups every device by status and alarm status (and model): with
-- idx_device_status (status, id) SQLite looked each device up in the table, 189 ms p99 at
-- 100,000 devices. This index answers from itself; a status change writes one more entry.
CREATE INDEX idx_device_figures ON device (status, alarm_status, model_id);
