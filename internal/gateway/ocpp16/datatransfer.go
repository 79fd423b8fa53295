package ocpp16

import (
	"github.com/lorenzodonini/ocpp-go/ocpp1.6/core"
)

// Vendor is chargeops' own vendorId in DataTransfer.
const Vendor = "chargeops"

// dataTransfer answers a charger's DataTransfer (docs/ocpp16.md): chargeops knows only its own
// vendor, and no message of it comes from a charger today, so its messages are
// UnknownMessageId and every other vendor is UnknownVendorId. The frame stays in the protocol
// log like every frame.
func dataTransfer(req *core.DataTransferRequest) *core.DataTransferConfirmation {
	if req.VendorId != Vendor {
		return core.NewDataTransferConfirmation(core.DataTransferStatusUnknownVendorId)
	}
	return core.NewDataTransferConfirmation(core.DataTransferStatusUnknownMessageId)
}
