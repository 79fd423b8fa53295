package app

import (
	"context"
	"fmt"
	"log/slog"

	"chargeops/internal/gateway/mqtt"
	"chargeops/internal/tlsconf"
)

// startMQTT starts the storage units' side (docs/mqtt.md): the embedded broker with its
// listeners, or a connection to --mqtt-broker, and the adapter that feeds the fleet core. The
// returned stop ends them (the broker closes its devices' connections, so their last wills
// mark them offline).
func (a *App) startMQTT(ctx context.Context) (stop func(), err error) {
	log := slog.Default().With("component", "mqtt")
	node := a.Cfg.NodeName
	if node == "" {
		node = a.Fleet.Node()
	}
	var bus mqtt.Bus
	var broker *mqtt.Broker
	if a.Cfg.MQTTBroker != "" {
		bus, err = mqtt.DialExternal(ctx, mqtt.ExternalOptions{URL: a.Cfg.MQTTBroker, Username: a.Cfg.MQTTUsername, Password: a.Cfg.MQTTPassword,
			ClientID: "chargeops-" + node, Log: log})
		if err != nil {
			return nil, fmt.Errorf("mqtt-broker: %w", err)
		}
	} else {
		o := mqtt.BrokerOptions{Addr: a.Cfg.MQTTAddr, TLSAddr: a.Cfg.MQTTTLSAddr, Log: log, Admission: &mqtt.Admission{Core: a.Fleet,
			RequireKeys: a.Cfg.RequireDeviceKeys, ClientCAs: a.clientCAs, KeyBackoff: a.Cfg.OCPPKeyBackoff, Log: log}}
		if o.TLSAddr != "" {
			certs, err := tlsconf.Load(tlsconf.Options{Pairs: a.Cfg.OCPPTLSPairs()})
			if err != nil {
				return nil, fmt.Errorf("mqtt-tls-addr: %w", err)
			}
			o.TLSConfig = certs.Config()
			o.TLSConfig.ClientCAs = a.clientCAs
		}
		if broker, err = mqtt.StartBroker(o); err != nil {
			return nil, err
		}
		a.MQTTBroker = broker
		bus = broker.Bus()
		log.Info("mqtt broker listening", "addr", broker.Addr(), "tls", broker.TLSAddr())
	}
	a.MQTT = mqtt.New(a.Fleet, a.Fleet.Registry, bus, mqtt.Options{Node: node, Shared: a.Cfg.MQTTBroker != "", Log: log})
	if err := a.MQTT.Start(); err != nil {
		_ = bus.Close()
		return nil, err
	}
	close(a.mqttUp)
	return func() {
		a.MQTT.Close()
		if broker != nil {
			_ = broker.Close()
		}
		_ = bus.Close()
	}, nil
}

// MQTTBrokerAddr waits until Serve has started the storage units' side and returns the embedded
// broker's plain listener ("" with --mqtt-broker or without a listener): the demo's simulated
// site agent connects there.
func (a *App) MQTTBrokerAddr(ctx context.Context) (string, error) {
	select {
	case <-a.mqttUp:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if a.MQTTBroker == nil {
		return "", nil
	}
	return a.MQTTBroker.Addr(), nil
}
