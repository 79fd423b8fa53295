package httpapi

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"chargeops/internal/fleet"
	"chargeops/internal/gateway/ocpp16"
)

type httpMetrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "chargeops_api_requests_total", Help: "API calls by route and answer code."}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "chargeops_api_request_seconds", Help: "API call duration by route.", Buckets: prometheus.DefBuckets}, []string{"route"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

func (m *httpMetrics) observe(route string, code int, d time.Duration) {
	m.requests.WithLabelValues(route, strconv.Itoa(code)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

// prometheusGatherer exposes the registry the metrics were registered in.
func prometheusGatherer(reg prometheus.Registerer) prometheus.Gatherer {
	if g, ok := reg.(prometheus.Gatherer); ok {
		return g
	}
	return prometheus.DefaultGatherer
}

// gatewayCounters is what the OCPP gateway (ocpp16.Gateway) tells of its sockets.
type gatewayCounters interface{ Stats() ocpp16.Stats }

// fleetCollector exposes the live fleet's figures on /metrics (read by `chargeops bench`,
// docs/benchmarks.md): connections held, sockets, admissions and refusals, and the ingest
// pipeline's protocol-log rows, batches, blocked submits and queue. Each scrape reads every
// counter once. Goroutines and memory come from the Go collector the node registers
// (go_goroutines, go_memstats_*).
type fleetCollector struct {
	fleet   *fleet.Service
	gateway gatewayCounters // nil when the gateway does not count
}

type fleetMetric struct {
	desc *prometheus.Desc
	kind prometheus.ValueType
}

func newFleetMetric(name, help string, kind prometheus.ValueType) fleetMetric {
	return fleetMetric{desc: prometheus.NewDesc(name, help, nil, nil), kind: kind}
}

var (
	mConnections = newFleetMetric("chargeops_ocpp_connections", "Devices whose live connection this node holds (the connection registry).", prometheus.GaugeValue)
	mSockets     = newFleetMetric("chargeops_ocpp_sockets", "OCPP WebSockets open on this node (known and pending chargers).", prometheus.GaugeValue)
	mAccepted    = newFleetMetric("chargeops_ocpp_accepted_total", "OCPP connections admitted by this node.", prometheus.CounterValue)
	mRefused     = newFleetMetric("chargeops_ocpp_refused_total", "OCPP connections refused by this node (blacklisted, unknown, disabled, wrong key).", prometheus.CounterValue)
	mUnreadable  = newFleetMetric("chargeops_ocpp_unreadable_frames_total", "OCPP frames this node could not handle (not JSON, not an OCPP-J frame, a numeric or over-long message id; docs/ocpp16.md).", prometheus.CounterValue)
	mKeyBackoff  = newFleetMetric("chargeops_ocpp_key_backoff_refused_total", "OCPP connections refused with HTTP 429 while their SN or address was in a wrong-key back-off (docs/gateway.md, \"Key guesses\").", prometheus.CounterValue)
	mMeterLimit  = newFleetMetric("chargeops_ocpp_meter_values_refused_total", "MeterValues refused with a CALLERROR: more sampled values than one message may carry, or over the charger's rate (docs/ocpp16.md, \"MeterValues bounds\").", prometheus.CounterValue)
	mLogRows     = newFleetMetric("chargeops_protocol_log_rows_written_total", "Protocol-log rows committed to the database by this node.", prometheus.CounterValue)
	mUnits       = newFleetMetric("chargeops_ingest_units_total", "Units (one charger message's writes) committed by the ingest pipeline.", prometheus.CounterValue)
	mBatches     = newFleetMetric("chargeops_ingest_batches_total", "Batch transactions committed by the ingest pipeline.", prometheus.CounterValue)
	mBlocked     = newFleetMetric("chargeops_ingest_blocked_total", "Submits that found the ingest queue full and waited (backpressure on chargers).", prometheus.CounterValue)
	mFailures    = newFleetMetric("chargeops_ingest_failures_total", "Ingest batch transactions that failed and were retried (the retries while the database is down or full).", prometheus.CounterValue)
	mCommitSecs  = newFleetMetric("chargeops_ingest_commit_seconds_total", "Time spent in ingest batch transactions.", prometheus.CounterValue)
	mMaxBatch    = newFleetMetric("chargeops_ingest_max_batch", "Largest ingest batch so far.", prometheus.GaugeValue)
	mQueue       = newFleetMetric("chargeops_ingest_queue", "Units waiting in the ingest queue.", prometheus.GaugeValue)
	mWriting     = newFleetMetric("chargeops_ingest_writing", "Units taken from the ingest queue into a batch not yet committed.", prometheus.GaugeValue)
	mQueueCap    = newFleetMetric("chargeops_ingest_queue_capacity", "Units the ingest queue holds before submitters wait.", prometheus.GaugeValue)
	// what an operator watches during a database outage or a full disk (docs/operations.md)
	mHeld       = newFleetMetric("chargeops_ingest_held", "1 while the ingest pipeline holds batches the database cannot take (chargers are not answered), else 0.", prometheus.GaugeValue)
	mHeldSecs   = newFleetMetric("chargeops_ingest_held_seconds", "How long the oldest held ingest batch has waited for the database (0 when none is held).", prometheus.GaugeValue)
	mSinceWrite = newFleetMetric("chargeops_ingest_seconds_since_write", "Seconds since the ingest pipeline last committed a batch.", prometheus.GaugeValue)
	mWALBytes   = newFleetMetric("chargeops_sqlite_wal_bytes", "Size of SQLite's write-ahead log file (truncated after a recovery and when over 64 MiB).", prometheus.GaugeValue)
)

// registerFleetMetrics registers the fleet collector; nothing without a fleet (the openapi
// command).
func registerFleetMetrics(reg prometheus.Registerer, d Deps) {
	if d.RequestLog != nil {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "chargeops_openapi_log_dropped_total",
			Help: "OpenAPI calls not written to the request log because its queue was full"}, func() float64 { return float64(d.RequestLog.Dropped()) }))
	}
	if d.Fleet == nil {
		return
	}
	c := &fleetCollector{fleet: d.Fleet}
	if g, ok := d.Gateway.(gatewayCounters); ok {
		c.gateway = g
	}
	reg.MustRegister(c)
}

func (c *fleetCollector) metrics() []fleetMetric {
	m := []fleetMetric{mConnections, mLogRows, mUnits, mBatches, mBlocked, mFailures, mCommitSecs, mMaxBatch, mQueue, mWriting, mQueueCap, mHeld, mHeldSecs, mSinceWrite, mWALBytes}
	if c.gateway != nil {
		m = append(m, mSockets, mAccepted, mRefused, mUnreadable, mKeyBackoff, mMeterLimit)
	}
	return m
}

// Describe implements prometheus.Collector.
func (c *fleetCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range c.metrics() {
		ch <- m.desc
	}
}

// Collect implements prometheus.Collector.
func (c *fleetCollector) Collect(ch chan<- prometheus.Metric) {
	emit := func(m fleetMetric, v float64) { ch <- prometheus.MustNewConstMetric(m.desc, m.kind, v) }
	st := c.fleet.Ingest.Stats()
	emit(mConnections, float64(c.fleet.Registry.Count()))
	emit(mLogRows, float64(st.LogRows))
	emit(mUnits, float64(st.Units))
	emit(mBatches, float64(st.Batches))
	emit(mBlocked, float64(st.Blocked))
	emit(mFailures, float64(st.Failures))
	emit(mCommitSecs, float64(st.CommitMicros)/1e6)
	emit(mMaxBatch, float64(st.MaxBatch))
	emit(mQueue, float64(st.Queue))
	emit(mWriting, float64(st.Writing))
	emit(mQueueCap, float64(st.QueueCap))
	h := c.fleet.Ingest.Health()
	held := 0.0
	if h.Held {
		held = 1
	}
	emit(mHeld, held)
	emit(mHeldSecs, h.HeldFor.Seconds())
	emit(mSinceWrite, h.SinceWrite.Seconds())
	emit(mWALBytes, float64(c.fleet.DB().WALSize()))
	if c.gateway != nil {
		gs := c.gateway.Stats()
		emit(mSockets, float64(gs.Active))
		emit(mAccepted, float64(gs.Accepted))
		emit(mRefused, float64(gs.Refused))
		emit(mUnreadable, float64(gs.Unreadable))
		emit(mKeyBackoff, float64(gs.KeyBackoff))
		emit(mMeterLimit, float64(gs.MeterRefused))
	}
}
