package ocpp201_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	ocpp2 "github.com/lorenzodonini/ocpp-go/ocpp2.0.1"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/authorization"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/availability"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/data"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/diagnostics"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/firmware"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/iso15118"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/localauth"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/provisioning"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/remotecontrol"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/reservation"
	"github.com/lorenzodonini/ocpp-go/ocpp2.0.1/types"
	ocppws "github.com/lorenzodonini/ocpp-go/ws"
)

// station is ocpp-go's 2.0.1 charging station (a client chargeops did not write) with handlers
// that record each call of the CSMS as one line and answer with the status set for its action
// (Accepted by default).
type station struct {
	cs      ocpp2.ChargingStation
	mu      sync.Mutex
	got     []string
	answers map[string]string // action → status to answer
	vars    map[string]string // "Component/Variable" → value (GetVariables, the base report)
}

// startStation connects a 2.0.1 charging station as sn to the gateway at base (client nil: the
// default, offering ocpp2.0.1 only).
func startStation(t *testing.T, base, sn string, client *ocppws.Client) (*station, error) {
	t.Helper()
	if client == nil {
		client = ocppws.NewClient()
	}
	s := &station{cs: ocpp2.NewChargingStation(sn, nil, client), answers: map[string]string{},
		vars: map[string]string{"OCPPCommCtrlr/HeartbeatInterval": "60", "SampledDataCtrlr/TxUpdatedInterval": "30"}}
	s.cs.SetProvisioningHandler(s)
	s.cs.SetAuthorizationHandler(s)
	s.cs.SetLocalAuthListHandler(s)
	s.cs.SetRemoteControlHandler(s)
	s.cs.SetAvailabilityHandler(s)
	s.cs.SetReservationHandler(s)
	s.cs.SetFirmwareHandler(s)
	s.cs.SetDiagnosticsHandler(s)
	s.cs.SetDataHandler(s)
	s.cs.SetISO15118Handler(s)
	if err := s.cs.Start(base); err != nil {
		return nil, err
	}
	t.Cleanup(s.cs.Stop)
	return s, nil
}

func (s *station) note(format string, args ...any) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	line := fmt.Sprintf(format, args...)
	s.got = append(s.got, line)
	return line
}

// last is the last call the station got.
func (s *station) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.got) == 0 {
		return ""
	}
	return s.got[len(s.got)-1]
}

// status is the status the station answers action with.
func (s *station) status(action, def string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.answers[action]; ok {
		return st
	}
	return def
}

func (s *station) answer(action, status string) {
	s.mu.Lock()
	s.answers[action] = status
	s.mu.Unlock()
}

func now() *types.DateTime { return types.NewDateTime(time.Now().UTC()) }

func intp(n int) *int { return &n }

// provisioning

func (s *station) OnGetBaseReport(r *provisioning.GetBaseReportRequest) (*provisioning.GetBaseReportResponse, error) {
	s.note("GetBaseReport %s", r.ReportBase)
	go func() { // the report follows the answer, in two parts
		time.Sleep(50 * time.Millisecond)
		for i, part := range [][]string{{"OCPPCommCtrlr", "HeartbeatInterval"}, {"SampledDataCtrlr", "TxUpdatedInterval"}} {
			key := part[0] + "/" + part[1]
			_, _ = s.cs.NotifyReport(r.RequestID, now(), i, func(req *provisioning.NotifyReportRequest) {
				req.Tbc = i == 0
				req.ReportData = []provisioning.ReportData{{Component: types.Component{Name: part[0]}, Variable: types.Variable{Name: part[1]},
					VariableAttribute:       []provisioning.VariableAttribute{{Type: types.AttributeActual, Value: s.vars[key], Mutability: provisioning.MutabilityReadWrite}},
					VariableCharacteristics: provisioning.NewVariableCharacteristics(provisioning.TypeInteger, false)}}
			})
		}
	}()
	return provisioning.NewGetBaseReportResponse(types.GenericDeviceModelStatus(s.status("GetBaseReport", "Accepted"))), nil
}

func (s *station) OnGetReport(*provisioning.GetReportRequest) (*provisioning.GetReportResponse, error) {
	return provisioning.NewGetReportResponse(types.GenericDeviceModelStatusNotSupported), nil
}

func (s *station) OnGetVariables(r *provisioning.GetVariablesRequest) (*provisioning.GetVariablesResponse, error) {
	var res []provisioning.GetVariableResult
	for _, v := range r.GetVariableData {
		key := v.Component.Name + "/" + v.Variable.Name
		s.note("GetVariables %s", key)
		val, ok := s.vars[key]
		st := provisioning.GetVariableStatusAccepted
		if !ok {
			st = provisioning.GetVariableStatusUnknownVariable
		}
		res = append(res, provisioning.GetVariableResult{AttributeStatus: st, AttributeValue: val, Component: v.Component, Variable: v.Variable})
	}
	return provisioning.NewGetVariablesResponse(res), nil
}

func (s *station) OnReset(r *provisioning.ResetRequest) (*provisioning.ResetResponse, error) {
	s.note("Reset %s", r.Type)
	return provisioning.NewResetResponse(provisioning.ResetStatus(s.status("Reset", "Accepted"))), nil
}

func (s *station) OnSetNetworkProfile(*provisioning.SetNetworkProfileRequest) (*provisioning.SetNetworkProfileResponse, error) {
	return provisioning.NewSetNetworkProfileResponse(provisioning.SetNetworkProfileStatusRejected), nil
}

func (s *station) OnSetVariables(r *provisioning.SetVariablesRequest) (*provisioning.SetVariablesResponse, error) {
	var res []provisioning.SetVariableResult
	for _, v := range r.SetVariableData {
		key := v.Component.Name + "/" + v.Variable.Name
		s.note("SetVariables %s=%s", key, v.AttributeValue)
		st := provisioning.SetVariableStatus(s.status("SetVariables", "Accepted"))
		if st == provisioning.SetVariableStatusAccepted {
			s.vars[key] = v.AttributeValue
		}
		res = append(res, provisioning.SetVariableResult{AttributeStatus: st, Component: v.Component, Variable: v.Variable})
	}
	return provisioning.NewSetVariablesResponse(res), nil
}

// authorization, local list

func (s *station) OnClearCache(*authorization.ClearCacheRequest) (*authorization.ClearCacheResponse, error) {
	s.note("ClearCache")
	return authorization.NewClearCacheResponse(authorization.ClearCacheStatus(s.status("ClearCache", "Accepted"))), nil
}

func (s *station) OnGetLocalListVersion(*localauth.GetLocalListVersionRequest) (*localauth.GetLocalListVersionResponse, error) {
	s.note("GetLocalListVersion")
	return localauth.NewGetLocalListVersionResponse(3), nil
}

func (s *station) OnSendLocalList(r *localauth.SendLocalListRequest) (*localauth.SendLocalListResponse, error) {
	s.note("SendLocalList %d %s %d", r.VersionNumber, r.UpdateType, len(r.LocalAuthorizationList))
	return localauth.NewSendLocalListResponse(localauth.SendLocalListStatus(s.status("SendLocalList", "Accepted"))), nil
}

// remote control

func (s *station) OnRequestStartTransaction(r *remotecontrol.RequestStartTransactionRequest) (*remotecontrol.RequestStartTransactionResponse, error) {
	evse := 0
	if r.EvseID != nil {
		evse = *r.EvseID
	}
	s.note("RequestStartTransaction %d %s %s", evse, r.IDToken.IdToken, r.IDToken.Type)
	return remotecontrol.NewRequestStartTransactionResponse(remotecontrol.RequestStartStopStatus(s.status("RequestStartTransaction", "Accepted"))), nil
}

func (s *station) OnRequestStopTransaction(r *remotecontrol.RequestStopTransactionRequest) (*remotecontrol.RequestStopTransactionResponse, error) {
	s.note("RequestStopTransaction %s", r.TransactionID)
	return remotecontrol.NewRequestStopTransactionResponse(remotecontrol.RequestStartStopStatus(s.status("RequestStopTransaction", "Accepted"))), nil
}

func (s *station) OnTriggerMessage(r *remotecontrol.TriggerMessageRequest) (*remotecontrol.TriggerMessageResponse, error) {
	evse := 0
	if r.Evse != nil {
		evse = r.Evse.ID
	}
	s.note("TriggerMessage %s %d", r.RequestedMessage, evse)
	return remotecontrol.NewTriggerMessageResponse(remotecontrol.TriggerMessageStatus(s.status("TriggerMessage", "Accepted"))), nil
}

func (s *station) OnUnlockConnector(r *remotecontrol.UnlockConnectorRequest) (*remotecontrol.UnlockConnectorResponse, error) {
	s.note("UnlockConnector %d %d", r.EvseID, r.ConnectorID)
	return remotecontrol.NewUnlockConnectorResponse(remotecontrol.UnlockStatus(s.status("UnlockConnector", "Unlocked"))), nil
}

// availability, reservations

func (s *station) OnChangeAvailability(r *availability.ChangeAvailabilityRequest) (*availability.ChangeAvailabilityResponse, error) {
	evse := -1
	if r.Evse != nil {
		evse = r.Evse.ID
	}
	s.note("ChangeAvailability %s %d", r.OperationalStatus, evse)
	return availability.NewChangeAvailabilityResponse(availability.ChangeAvailabilityStatus(s.status("ChangeAvailability", "Accepted"))), nil
}

func (s *station) OnCancelReservation(r *reservation.CancelReservationRequest) (*reservation.CancelReservationResponse, error) {
	s.note("CancelReservation %d", r.ReservationID)
	return reservation.NewCancelReservationResponse(reservation.CancelReservationStatus(s.status("CancelReservation", "Accepted"))), nil
}

func (s *station) OnReserveNow(r *reservation.ReserveNowRequest) (*reservation.ReserveNowResponse, error) {
	evse := 0
	if r.EvseID != nil {
		evse = *r.EvseID
	}
	s.note("ReserveNow %d %s", evse, r.IdToken.IdToken)
	return reservation.NewReserveNowResponse(reservation.ReserveNowStatus(s.status("ReserveNow", "Accepted"))), nil
}

// firmware, logs

func (s *station) OnPublishFirmware(*firmware.PublishFirmwareRequest) (*firmware.PublishFirmwareResponse, error) {
	return firmware.NewPublishFirmwareResponse(types.GenericStatusRejected), nil
}

func (s *station) OnUnpublishFirmware(*firmware.UnpublishFirmwareRequest) (*firmware.UnpublishFirmwareResponse, error) {
	return firmware.NewUnpublishFirmwareResponse(firmware.UnpublishFirmwareStatusNoFirmware), nil
}

func (s *station) OnUpdateFirmware(r *firmware.UpdateFirmwareRequest) (*firmware.UpdateFirmwareResponse, error) {
	s.note("UpdateFirmware %d", r.RequestID)
	return firmware.NewUpdateFirmwareResponse(firmware.UpdateFirmwareStatus(s.status("UpdateFirmware", "Accepted"))), nil
}

func (s *station) OnGetLog(r *diagnostics.GetLogRequest) (*diagnostics.GetLogResponse, error) {
	s.note("GetLog %s %d", r.LogType, r.RequestID)
	res := diagnostics.NewGetLogResponse(diagnostics.LogStatus(s.status("GetLog", "Accepted")))
	res.Filename = "station.log"
	return res, nil
}

func (s *station) OnClearVariableMonitoring(*diagnostics.ClearVariableMonitoringRequest) (*diagnostics.ClearVariableMonitoringResponse, error) {
	return nil, fmt.Errorf("not supported")
}

func (s *station) OnCustomerInformation(*diagnostics.CustomerInformationRequest) (*diagnostics.CustomerInformationResponse, error) {
	return nil, fmt.Errorf("not supported")
}

func (s *station) OnGetMonitoringReport(*diagnostics.GetMonitoringReportRequest) (*diagnostics.GetMonitoringReportResponse, error) {
	return nil, fmt.Errorf("not supported")
}

func (s *station) OnSetMonitoringBase(*diagnostics.SetMonitoringBaseRequest) (*diagnostics.SetMonitoringBaseResponse, error) {
	return nil, fmt.Errorf("not supported")
}

func (s *station) OnSetMonitoringLevel(*diagnostics.SetMonitoringLevelRequest) (*diagnostics.SetMonitoringLevelResponse, error) {
	return nil, fmt.Errorf("not supported")
}

func (s *station) OnSetVariableMonitoring(*diagnostics.SetVariableMonitoringRequest) (*diagnostics.SetVariableMonitoringResponse, error) {
	return nil, fmt.Errorf("not supported")
}

// data transfer, certificates

func (s *station) OnDataTransfer(r *data.DataTransferRequest) (*data.DataTransferResponse, error) {
	s.note("DataTransfer %s %s %v", r.VendorID, r.MessageID, r.Data)
	return data.NewDataTransferResponse(data.DataTransferStatus(s.status("DataTransfer", "Accepted"))), nil
}

func (s *station) OnDeleteCertificate(r *iso15118.DeleteCertificateRequest) (*iso15118.DeleteCertificateResponse, error) {
	s.note("DeleteCertificate %s", r.CertificateHashData.SerialNumber)
	return iso15118.NewDeleteCertificateResponse(iso15118.DeleteCertificateStatus(s.status("DeleteCertificate", "Accepted"))), nil
}

func (s *station) OnGetInstalledCertificateIds(r *iso15118.GetInstalledCertificateIdsRequest) (*iso15118.GetInstalledCertificateIdsResponse, error) {
	s.note("GetInstalledCertificateIds %v", r.CertificateTypes)
	res := iso15118.NewGetInstalledCertificateIdsResponse(iso15118.GetInstalledCertificateStatusAccepted)
	res.CertificateHashDataChain = []types.CertificateHashDataChain{{CertificateType: types.CSMSRootCertificate,
		CertificateHashData: types.CertificateHashData{HashAlgorithm: types.SHA256, IssuerNameHash: strings.Repeat("a", 64), IssuerKeyHash: strings.Repeat("b", 64), SerialNumber: "0c"}}}
	return res, nil
}

func (s *station) OnInstallCertificate(r *iso15118.InstallCertificateRequest) (*iso15118.InstallCertificateResponse, error) {
	s.note("InstallCertificate %s", r.CertificateType)
	return iso15118.NewInstallCertificateResponse(iso15118.InstallCertificateStatus(s.status("InstallCertificate", "Accepted"))), nil
}
