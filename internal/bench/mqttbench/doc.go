// Package mqttbench measures storage units over MQTT (issue 26, docs/benchmarks.md "Storage
// units over MQTT"): N simulated units, each an MQTT 5 client (paho) on its own socket, connect
// with their SN, publish a retained birth and then one telemetry message (a reading of the
// usual storage values, internal/ess) every interval at QoS 1, and time each message from its
// PUBLISH to the ack chargeops sends on {sn}/ack once the readings are committed.
//
// The same load runs against three servers, each in a process of its own so that the load
// generator's sockets and CPU are not the server's:
//   - a chargeops node (`chargeops serve` with --mqtt-addr) on SQLite or on a scratch
//     PostgreSQL database, with the units seeded as devices of a storage model (device type 4);
//     every reading must be acked and present in device_series and device_runtime afterwards;
//   - the broker alone: the same embedded broker (mochi-mqtt) with an allow-all hook and an
//     inline subscriber that reads each telemetry payload and acks it at once, storing nothing.
//
// The server's CPU time and RSS are read from /proc, the node's ingest figures from /metrics.
package mqttbench
