package app

import (
	"chargeops/internal/loadmgmt"
	"chargeops/internal/openapi/webhook"
)

// allocationWebhooks turns the load manager's committed allocation changes into power.allocation
// webhook events (docs/webhooks.md); an ended session's allocation is announced as 0 A.
func allocationWebhooks(w *webhook.Service) func([]loadmgmt.AllocationChange) {
	return func(cs []loadmgmt.AllocationChange) {
		for _, c := range cs {
			d := webhook.AllocationData{SiteID: c.SiteID, DeviceID: c.DeviceID, ConnectorID: c.ConnectorID, TransactionID: c.TransactionID,
				LimitA: c.LimitA, LimitW: c.LimitW, State: c.State, At: c.At}
			if c.Ended {
				d.LimitA, d.LimitW = 0, 0
			}
			w.OnAllocation(d)
		}
	}
}
