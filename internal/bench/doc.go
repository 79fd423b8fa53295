// Package bench is `chargeops bench` (issue 9): it measures the OCPP ingest path of a running
// node at fleet scale, and the same load against ocpp-go's own central system as a baseline.
//
//   - Seed bulk-inserts the bench devices (and the device-list benchmark's fleet).
//   - RunBare serves the baseline: ocpp-go v0.19's central system (1.6) or CSMS (2.0.1, bare201.go),
//     answering and storing nothing.
//   - Run drives N simulated chargers, speaking OCPP 1.6 or 2.0.1 (wire.go, wire201.go), from this
//     process or from worker processes (RunWorker):
//     it connects them at a bounded rate, reads the server's memory per connection after a full
//     GC (POST /debug/gc, internal/bench/memstat), sends MeterValues at a fixed aggregate rate,
//     open loop, and times every CALL; it times remote commands through the console API
//     (internal/bench/console), optionally drops and reconnects every charger at once, and
//     compares the protocol-log rows the server wrote with the frames that crossed the sockets.
//
// docs/benchmarks.md ("Ingest at fleet scale") has the commands and the figures.
package bench
