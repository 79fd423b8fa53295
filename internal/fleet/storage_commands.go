package fleet

import (
	"math"

	"chargeops/internal/apperr"
	"chargeops/internal/ess"
)

// KeyStorage is the permission key of the storage commands 29-32 besides control/send's own.
const KeyStorage = "auth_device_storage"

// maxStoragePowerW bounds a power setpoint (10 MW either way): a unit refuses what it cannot
// do, this only refuses what no storage unit behind one agent can.
const maxStoragePowerW = 10_000_000

// validateStorage checks the parameters of the storage commands 29-32, one check per field.
func validateStorage(ct int, p *Params) error {
	switch ct {
	case CtlStoragePower:
		if p.PowerW == nil {
			return apperr.InvalidField("params.powerW", "err.required")
		}
		if v := *p.PowerW; math.IsNaN(v) || math.Abs(v) > maxStoragePowerW {
			return apperr.InvalidField("params.powerW", "err.invalid")
		}
	case CtlStorageMode:
		if p.Mode == "" {
			return apperr.InvalidField("params.mode", "err.required")
		}
		if !ess.ValidMode(p.Mode) {
			return apperr.InvalidField("params.mode", "err.invalid")
		}
	}
	return nil
}
