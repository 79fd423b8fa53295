package bench

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"sync/atomic"
	"time"

	ocpp16 "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/types"
	"github.com/lorenzodonini/ocpp-go/ws"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"chargeops/internal/memstat"
)

// BareOptions shape the bare baseline server.
type BareOptions struct {
	// Addr is HOST:PORT. ocpp-go's ws.Server.Start takes a port only and listens on every
	// interface (":PORT"); the host is only checked to be loopback or empty, as a reminder that
	// the baseline is for loopback load. /metrics and /debug/gc answer loopback peers only.
	Addr string
	// Protocol is Protocol16 (default: ocpp1.6.NewCentralSystem) or Protocol201
	// (ocpp2.0.1.NewCSMS, bare201.go).
	Protocol string
	// Ready, when set, is called once the port accepts connections.
	Ready func(addr string)
}

// bareHandler is the peer baseline's central system: ocpp-go's own server and OCPP-J layer,
// with answers like the library's central-system example and nothing stored.
type bareHandler struct {
	tx atomic.Int64
}

func (h *bareHandler) OnAuthorize(string, *core.AuthorizeRequest) (*core.AuthorizeConfirmation, error) {
	return core.NewAuthorizationConfirmation(types.NewIdTagInfo(types.AuthorizationStatusAccepted)), nil
}

func (h *bareHandler) OnBootNotification(string, *core.BootNotificationRequest) (*core.BootNotificationConfirmation, error) {
	return core.NewBootNotificationConfirmation(types.NewDateTime(time.Now()), 60, core.RegistrationStatusAccepted), nil
}

func (h *bareHandler) OnDataTransfer(string, *core.DataTransferRequest) (*core.DataTransferConfirmation, error) {
	return core.NewDataTransferConfirmation(core.DataTransferStatusAccepted), nil
}

func (h *bareHandler) OnHeartbeat(string, *core.HeartbeatRequest) (*core.HeartbeatConfirmation, error) {
	return core.NewHeartbeatConfirmation(types.NewDateTime(time.Now())), nil
}

func (h *bareHandler) OnMeterValues(string, *core.MeterValuesRequest) (*core.MeterValuesConfirmation, error) {
	return core.NewMeterValuesConfirmation(), nil
}

func (h *bareHandler) OnStatusNotification(string, *core.StatusNotificationRequest) (*core.StatusNotificationConfirmation, error) {
	return core.NewStatusNotificationConfirmation(), nil
}

func (h *bareHandler) OnStartTransaction(string, *core.StartTransactionRequest) (*core.StartTransactionConfirmation, error) {
	return core.NewStartTransactionConfirmation(types.NewIdTagInfo(types.AuthorizationStatusAccepted), int(h.tx.Add(1))), nil
}

func (h *bareHandler) OnStopTransaction(string, *core.StopTransactionRequest) (*core.StopTransactionConfirmation, error) {
	return core.NewStopTransactionConfirmation(), nil
}

// bareCentral is ocpp-go's central system of one protocol (ocpp1.6.CentralSystem, ocpp2.CSMS).
type bareCentral interface {
	Start(listenPort int, listenPath string)
	Stop()
}

// newBare16 is ocpp-go's 1.6 central system on server, counting its connections in open.
func newBare16(server *ws.Server, open *atomic.Int64) bareCentral {
	cs := ocpp16.NewCentralSystem(nil, server)
	cs.SetCoreHandler(&bareHandler{})
	cs.SetNewChargePointHandler(func(ocpp16.ChargePointConnection) { open.Add(1) })
	cs.SetChargePointDisconnectedHandler(func(ocpp16.ChargePointConnection) { open.Add(-1) })
	return cs
}

// RunBare runs ocpp-go v0.19's own central system (ocpp1.6.NewCentralSystem, or with Protocol
// 2.0.1 ocpp2.0.1.NewCSMS, over its ws.Server) at ws://ADDR/ocpp/{SN} with sub-protocol
// ocpp1.6 (ocpp2.0.1) until ctx ends: the baseline `chargeops bench run` is compared with. It
// also serves GET /metrics (the Go collector and chargeops_ocpp_connections) and POST
// /debug/gc like a chargeops node, so the bench reads the same figures from both.
func RunBare(ctx context.Context, o BareOptions) error {
	var newCentral func(*ws.Server, *atomic.Int64) bareCentral
	switch o.Protocol {
	case "", Protocol16:
		newCentral = newBare16
	case Protocol201:
		newCentral = newBare201
	default:
		return fmt.Errorf("bare: --protocol must be %s or %s, got %q", Protocol16, Protocol201, o.Protocol)
	}
	host, portText, err := net.SplitHostPort(o.Addr)
	if err != nil {
		return fmt.Errorf("bare: --addr: %w", err)
	}
	if host != "" && host != "localhost" {
		if ip, err := netip.ParseAddr(host); err != nil || !ip.IsLoopback() {
			return fmt.Errorf("bare: --addr %s: the baseline is for loopback load (ocpp-go listens on every interface anyway)", o.Addr)
		}
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port <= 0 {
		return fmt.Errorf("bare: --addr needs a port, got %q", o.Addr)
	}
	var open atomic.Int64
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: metricConnections,
		Help: "Charge points connected to the bare central system."}, func() float64 { return float64(open.Load()) }))

	server := ws.NewServer()
	cs := newCentral(server, &open)
	metrics := loopbackOnly(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	gc := loopbackOnly(memstat.Handler())
	server.AddHttpHandler("/metrics", metrics.ServeHTTP)
	server.AddHttpHandler("/debug/gc", gc.ServeHTTP)

	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		cs.Start(port, "/ocpp/{ws}")
	}()
	ready := net.JoinHostPort("127.0.0.1", portText)
	for {
		c, err := net.DialTimeout("tcp", ready, time.Second)
		if err == nil {
			c.Close()
			break
		}
		select {
		case <-stopped:
			return fmt.Errorf("bare: the ocpp-go server did not start on port %d (in use?)", port)
		case <-ctx.Done():
			return nil
		case <-time.After(20 * time.Millisecond):
		}
	}
	if o.Ready != nil {
		o.Ready(ready)
	}
	select {
	case <-ctx.Done():
	case <-stopped:
		return fmt.Errorf("bare: the ocpp-go server stopped")
	}
	// ocpp-go v0.19's server dispatcher can deadlock when many chargers disconnect at once (its
	// request state shares the dispatcher's RWMutex: lorenzodonini/ocpp-go#358, #412); Stop then
	// never returns, so it gets a few seconds.
	go cs.Stop()
	select {
	case <-stopped:
		return nil
	case <-time.After(5 * time.Second):
		return fmt.Errorf("bare: the ocpp-go central system did not stop within 5 s (its dispatcher may be deadlocked: lorenzodonini/ocpp-go#358)")
	}
}

// loopbackOnly refuses peers that are not on this machine.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.RemoteAddr)
		ip, perr := netip.ParseAddr(host)
		if err != nil || perr != nil || !ip.Unmap().IsLoopback() {
			http.Error(w, "loopback only", http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}
