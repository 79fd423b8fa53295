package ocpp16

import (
	"context"
	"encoding/json"
	"time"

	"github.com/lorenzodonini/ocpp-go/ocpp1.6/security"

	"chargeops/internal/fleet"
)

// securityEvent answers a SecurityEventNotification once the event is committed
// (fleet.Service.SecurityEvent: stored, and a critical type opens an alarm). A payload that
// breaks the schema (no type or timestamp, a type over 50 or techInfo over 255 characters) is
// refused by decode with its CALLERROR.
func (c *conn) securityEvent(dev *fleet.Device, raw json.RawMessage) (any, error) {
	var req security.SecurityEventNotificationRequest
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var at int64
	if req.Timestamp != nil && !req.Timestamp.IsZero() {
		at = req.Timestamp.UnixMilli()
	}
	r := fleet.SecurityEventReport{Device: dev, Type: req.Type, TechInfo: req.TechInfo, Critical: SecurityEventCritical(req.Type),
		ExplainedBy: securityEventExplainedBy[req.Type], At: at}
	if err := c.g.fleet.SecurityEvent(ctx, r); err != nil {
		return nil, err
	}
	return security.NewSecurityEventNotificationResponse(), nil
}
