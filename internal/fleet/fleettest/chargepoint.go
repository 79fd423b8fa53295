package fleettest

import (
	ocpp16 "github.com/lorenzodonini/ocpp-go/ocpp1.6"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/certificates"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/extendedtriggermessage"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/localauth"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/logging"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/remotetrigger"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/securefirmware"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/security"
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/smartcharging"
	"github.com/lorenzodonini/ocpp-go/ocppj"
	"github.com/lorenzodonini/ocpp-go/ws"
)

// ChargePoint is ocpp-go's OCPP 1.6 charge point (the independent client of the tests) with
// every profile, as ocpp16.NewChargePoint makes it, except that its request dispatcher survives
// a connection the server closes at once. ocpp-go v0.19.0's client starts its socket's pumps
// before its dispatcher, so a close in between calls Pause on a dispatcher without its timer
// and panics (a nil *time.Timer): the whole test binary dies. Tests that refuse or drop chargers
// hit it now and then (twice in CI runs of 2026-11-29).
func ChargePoint(id string, client ws.WsClient) ocpp16.ChargePoint {
	if client == nil {
		client = ws.NewClient()
	}
	d := startedDispatcher{ocppj.NewDefaultClientDispatcher(ocppj.NewFIFOClientQueue(0))}
	endpoint := ocppj.NewClient(id, client, d, nil, core.Profile, localauth.Profile, firmware.Profile, reservation.Profile,
		remotetrigger.Profile, smartcharging.Profile, logging.Profile, security.Profile, extendedtriggermessage.Profile,
		certificates.Profile, securefirmware.Profile)
	return ocpp16.NewChargePoint(id, endpoint, client)
}

// startedDispatcher pauses and resumes the dispatcher only once it started (its timer exists).
type startedDispatcher struct{ *ocppj.DefaultClientDispatcher }

func (d startedDispatcher) Pause() {
	if d.IsRunning() {
		d.DefaultClientDispatcher.Pause()
	}
}

func (d startedDispatcher) Resume() {
	if d.IsRunning() {
		d.DefaultClientDispatcher.Resume()
	}
}
