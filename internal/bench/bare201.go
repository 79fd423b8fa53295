package bench

import (
	"sync/atomic"
	"time"

	ocpp2 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/meter"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/transactions"
	types2 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"
	"github.com/lorenzodonini/ocpp-go/ws"
)

// bareHandler201 is the 2.0.1 peer baseline: ocpp-go's own CSMS answering like bareHandler does
// for 1.6 (Boot Accepted with interval 60, every token Accepted) and storing nothing.
type bareHandler201 struct{}

func (bareHandler201) OnBootNotification(string, *provisioning.BootNotificationRequest) (*provisioning.BootNotificationResponse, error) {
	return provisioning.NewBootNotificationResponse(types2.NewDateTime(time.Now()), 60, provisioning.RegistrationStatusAccepted), nil
}

func (bareHandler201) OnNotifyReport(string, *provisioning.NotifyReportRequest) (*provisioning.NotifyReportResponse, error) {
	return &provisioning.NotifyReportResponse{}, nil
}

func (bareHandler201) OnHeartbeat(string, *availability.HeartbeatRequest) (*availability.HeartbeatResponse, error) {
	return availability.NewHeartbeatResponse(*types2.NewDateTime(time.Now())), nil
}

func (bareHandler201) OnStatusNotification(string, *availability.StatusNotificationRequest) (*availability.StatusNotificationResponse, error) {
	return availability.NewStatusNotificationResponse(), nil
}

func (bareHandler201) OnTransactionEvent(_ string, req *transactions.TransactionEventRequest) (*transactions.TransactionEventResponse, error) {
	resp := transactions.NewTransactionEventResponse()
	if req.IDToken != nil { // 2.0.1: idTokenInfo is required when the event carries an idToken
		resp.IDTokenInfo = types2.NewIdTokenInfo(types2.AuthorizationStatusAccepted)
	}
	return resp, nil
}

func (bareHandler201) OnMeterValues(string, *meter.MeterValuesRequest) (*meter.MeterValuesResponse, error) {
	return meter.NewMeterValuesResponse(), nil
}

func (bareHandler201) OnAuthorize(string, *authorization.AuthorizeRequest) (*authorization.AuthorizeResponse, error) {
	return authorization.NewAuthorizationResponse(*types2.NewIdTokenInfo(types2.AuthorizationStatusAccepted)), nil
}

// newBare201 is ocpp-go's 2.0.1 CSMS (ocpp2.0.1.NewCSMS, sub-protocol ocpp2.0.1) on server,
// counting its connections in open.
func newBare201(server *ws.Server, open *atomic.Int64) bareCentral {
	cs := ocpp2.NewCSMS(nil, server)
	h := bareHandler201{}
	cs.SetProvisioningHandler(h)
	cs.SetAvailabilityHandler(h)
	cs.SetTransactionsHandler(h)
	cs.SetMeterHandler(h)
	cs.SetAuthorizationHandler(h)
	cs.SetNewChargingStationHandler(func(ocpp2.ChargingStationConnection) { open.Add(1) })
	cs.SetChargingStationDisconnectedHandler(func(ocpp2.ChargingStationConnection) { open.Add(-1) })
	return cs
}
