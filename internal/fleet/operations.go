package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/smartcharging"
)

// The operator's daily actions, control types 12-18 (docs/gateway.md, "Commands";
// docs/decisions.md §6): their parameters, the permission key each needs besides control/send's
// own, and what is checked on each device before anything is sent.

// Permission keys of the operator actions (api/permissions.json).
const (
	KeyRemoteStart = "auth_device_remoteStart" // 12 remote start, 13 remote stop
	KeyUnlock      = "auth_device_unlock"      // 14 unlock a connector
	KeyReserve     = "auth_device_reserve"     // 17 reserve, 18 cancel a reservation
	KeyTokenEdit   = "auth_token_edit"         // 19 send the local list, 20 read its version (as the console's local-list send)
	KeyCertificate = "auth_device_certificate" // 21-24 certificates of a charger (renewal, install, list, delete); 25 a security log
)

// Bounds of the operator actions' parameters.
const (
	maxIDTag          = 20   // OCPP 1.6 IdToken: CiString20
	maxVendorID       = 255  // DataTransfer vendorId: CiString255
	maxMessageID      = 50   // DataTransfer messageId: CiString50
	maxTransferData   = 8192 // bytes of DataTransfer data an engineer may send
	maxReservationFor = 7 * 24 * time.Hour
)

// operationKey is the permission key control type ct needs besides control/send's own ("" none).
func operationKey(ct int) string {
	switch ct {
	case CtlRemoteStart, CtlRemoteStop:
		return KeyRemoteStart
	case CtlUnlockConnector:
		return KeyUnlock
	case CtlReserveNow, CtlCancelReservation:
		return KeyReserve
	case CtlSendLocalList, CtlGetLocalListVersion:
		return KeyTokenEdit
	case CtlRenewCertificate, CtlInstallCertificate, CtlGetCertificateIDs, CtlDeleteCertificate:
		return KeyCertificate
	case CtlSetChargingProfile, CtlClearChargingProfile, CtlGetCompositeSchedule:
		return KeyChargingProfile
	case CtlStoragePower, CtlStorageMode, CtlStorageRun, CtlStorageFaultReset:
		return KeyStorage
	}
	return ""
}

// oneDeviceOnly: actions whose parameters name one device's connector, session or reservation.
func oneDeviceOnly(ct int, p Params) bool {
	switch ct {
	case CtlRemoteStart, CtlRemoteStop, CtlDataTransfer, CtlReserveNow, CtlCancelReservation, CtlGetCompositeSchedule:
		return true
	case CtlSetChargingProfile: // a Tx profile names one device's session
		return p.Profile != nil && p.Profile.Purpose == smartcharging.PurposeTx
	}
	return false
}

// tooLong is the error of a text field longer than max characters.
func tooLong(field string, max int) error {
	return apperr.InvalidField(field, "err.ops_too_long").With(map[string]any{"field": field, "max": max})
}

// checkIDTag: an idTag of 1-20 printable ASCII characters (OCPP 1.6 CiString20).
func checkIDTag(field, tag string, required bool) error {
	if tag == "" {
		if required {
			return apperr.InvalidField(field, "err.required")
		}
		return nil
	}
	if len(tag) > maxIDTag {
		return tooLong(field, maxIDTag)
	}
	for _, r := range tag {
		if r < 0x20 || r > 0x7e {
			return apperr.InvalidField(field, "err.invalid")
		}
	}
	return nil
}

// validateOperation checks the parameters of control types 12-18, one check per field; now is
// the time expiries are measured from (unix ms).
func validateOperation(ct int, p *Params, now int64) error {
	switch ct {
	case CtlInstallCertificate, CtlGetCertificateIDs, CtlDeleteCertificate:
		return validateCertificateParams(ct, p) // certificates_installed.go
	case CtlSetChargingProfile, CtlClearChargingProfile, CtlGetCompositeSchedule:
		return validateSmartCharging(ct, p) // charging_profiles.go
	case CtlRemoteStart:
		if p.ConnectorID < 0 {
			return apperr.InvalidField("params.connectorId", "err.invalid")
		}
		return checkIDTag("params.idTag", p.IDTag, true)
	case CtlRemoteStop:
		if p.TransactionID <= 0 {
			return apperr.InvalidField("params.transactionId", "err.required")
		}
	case CtlUnlockConnector:
		if p.ConnectorID < 1 {
			return apperr.InvalidField("params.connectorId", "err.invalid")
		}
	case CtlDataTransfer:
		if p.VendorID == "" {
			return apperr.InvalidField("params.vendorId", "err.required")
		}
		if len(p.VendorID) > maxVendorID {
			return tooLong("params.vendorId", maxVendorID)
		}
		if len(p.MessageID) > maxMessageID {
			return tooLong("params.messageId", maxMessageID)
		}
		if len(p.Data) > maxTransferData {
			return tooLong("params.data", maxTransferData)
		}
	case CtlReserveNow:
		p.ReservationID = 0    // the core's
		if p.ConnectorID < 0 { // 0: the charge point as a whole (ReserveConnectorZeroSupported)
			return apperr.InvalidField("params.connectorId", "err.invalid")
		}
		if err := checkIDTag("params.idTag", p.IDTag, true); err != nil {
			return err
		}
		if err := checkIDTag("params.parentIdTag", p.ParentIDTag, false); err != nil {
			return err
		}
		if p.ExpiryDate <= now || p.ExpiryDate > now+maxReservationFor.Milliseconds() {
			return apperr.InvalidField("params.expiryDate", "err.ops_expiry").
				With(map[string]any{"field": "params.expiryDate", "days": int(maxReservationFor.Hours() / 24)})
		}
	case CtlCancelReservation:
		if p.ReservationID <= 0 {
			return apperr.InvalidField("params.reservationId", "err.required")
		}
	case CtlGetLog:
		return checkGetLog(p) // logs.go
	}
	return nil
}

// checkOperationAccess: the action's own permission key (a security log's: logAccess, logs.go),
// and one device for the actions that name one device's connector, session or reservation.
func checkOperationAccess(p *access.Principal, ct int, prm Params, devices int) error {
	if k := operationKey(ct); k != "" && !p.HasAny(k) {
		return apperr.ErrNoPermission
	}
	if err := logAccess(p, ct, prm); err != nil {
		return err
	}
	if devices > 1 && oneDeviceOnly(ct, prm) {
		return apperr.New(apperr.Invalid, "err.ops_one_device").With(map[string]any{"field": "deviceIds"})
	}
	return nil
}

// checkOperation holds an action to what the device has: its connector, its open session, its
// reservation, and the token's standing with the device's customer (refused before anything
// is sent).
func (s *Service) checkOperation(ctx context.Context, t target, p Params, ct int) error {
	switch ct {
	case CtlSetChargingProfile:
		return s.checkProfile(ctx, t.id, p.ConnectorID, p.Profile) // charging_profiles.go
	case CtlRemoteStart:
		if p.ConnectorID > 0 {
			if err := s.checkConnector(ctx, t.id, p.ConnectorID); err != nil {
				return err
			}
		}
		return s.checkToken(ctx, t.id, p.IDTag)
	case CtlRemoteStop:
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_transaction WHERE id = ? AND device_id = ? AND stopped_at = ?`,
			p.TransactionID, t.id, 0).Scan(&n); err != nil {
			return fmt.Errorf("fleet: open session: %w", err)
		}
		if n == 0 {
			return apperr.InvalidField("params.transactionId", "err.ops_no_session").With(map[string]any{"field": "params.transactionId", "id": p.TransactionID})
		}
	case CtlUnlockConnector:
		return s.checkConnector(ctx, t.id, p.ConnectorID)
	case CtlReserveNow:
		if p.ConnectorID > 0 {
			if err := s.checkConnector(ctx, t.id, p.ConnectorID); err != nil {
				return err
			}
		}
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM reservation WHERE device_id = ? AND connector_id = ? AND status IN (?, ?)`,
			t.id, p.ConnectorID, ReservationRequested, ReservationActive).Scan(&n); err != nil {
			return fmt.Errorf("fleet: open reservation: %w", err)
		}
		if n > 0 {
			return apperr.InvalidField("params.connectorId", "err.ops_reserved").With(map[string]any{"field": "params.connectorId", "connector": p.ConnectorID})
		}
		return s.checkToken(ctx, t.id, p.IDTag)
	case CtlCancelReservation:
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM reservation WHERE id = ? AND device_id = ? AND status IN (?, ?)`,
			p.ReservationID, t.id, ReservationRequested, ReservationActive).Scan(&n); err != nil {
			return fmt.Errorf("fleet: reservation: %w", err)
		}
		if n == 0 {
			return apperr.InvalidField("params.reservationId", "err.ops_no_reservation").With(map[string]any{"field": "params.reservationId", "id": p.ReservationID})
		}
	}
	return nil
}

// checkConnector: the device reported connector n (a StatusNotification stored it).
func (s *Service) checkConnector(ctx context.Context, deviceID int64, n int) error {
	var c int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM device_connector WHERE device_id = ? AND connector_id = ?`, deviceID, n).Scan(&c); err != nil {
		return fmt.Errorf("fleet: connector: %w", err)
	}
	if c == 0 {
		return apperr.InvalidField("params.connectorId", "err.ops_no_connector").With(map[string]any{"field": "params.connectorId", "connector": n})
	}
	return nil
}

// checkToken asks the device customer's token authority about idTag; Blocked, Expired and
// Invalid tokens are refused with their own message.
func (s *Service) checkToken(ctx context.Context, deviceID int64, idTag string) error {
	dev, err := s.DeviceByID(ctx, deviceID)
	if err != nil {
		return fmt.Errorf("fleet: token device: %w", err)
	}
	if dev == nil {
		return apperr.ErrNotFound
	}
	ans, err := s.Authorize(ctx, dev, idTag)
	if err != nil {
		return fmt.Errorf("fleet: authorize token: %w", err)
	}
	switch ans.Status {
	case TokenBlocked:
		return apperr.InvalidField("params.idTag", "err.ops_token_blocked").With(map[string]any{"field": "params.idTag", "idTag": idTag})
	case TokenExpired:
		return apperr.InvalidField("params.idTag", "err.ops_token_expired").With(map[string]any{"field": "params.idTag", "idTag": idTag})
	case TokenInvalid:
		return apperr.InvalidField("params.idTag", "err.ops_token_invalid").With(map[string]any{"field": "params.idTag", "idTag": idTag})
	}
	return nil
}

// operationEnded records what an action's outcome means beyond the command: a reservation
// becomes active or refused, a cancelled one cancelled.
func (s *Service) operationEnded(ctx context.Context, cmd Command, out Outcome) {
	var err error
	switch cmd.ControlType {
	case CtlReserveNow:
		err = s.reservationAnswered(ctx, cmd, out)
	case CtlCancelReservation:
		if out.Result == ResultSuccess {
			err = s.setReservation(ctx, cmd.Params.ReservationID, cmd.DeviceID, ReservationCancelled, "", ReservationRequested, ReservationActive)
		}
	case CtlSoftReset, CtlHardReset:
		if out.Result == ResultSuccess {
			err = s.restarting(ctx, cmd)
		}
	case CtlSetChargingProfile, CtlClearChargingProfile:
		err = s.profileAnswered(ctx, cmd, out) // charging_profiles.go
	}
	if err != nil {
		slog.Error("operation outcome not saved", "id", cmd.ID, "type", cmd.ControlType, "err", err)
	}
}

// answerStatus is the status field of a device's answer ("" when it has none).
func answerStatus(raw json.RawMessage) string {
	var a struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(raw, &a)
	return a.Status
}
