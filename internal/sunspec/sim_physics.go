package sunspec

import (
	"math"
	"time"

	"chargeops/internal/ess"
)

// The simulated bank: 14 modules of 16 LFP cells in series, so the pack sits between about
// 717 V (empty) and 795 V (full) at rest.
const (
	simModules        = 14
	simCellsPerModule = 16
	simCells          = simModules * simCellsPerModule
	simCellOCVEmpty   = 3.20   // V, open-circuit at 0 % SoC
	simCellOCVSpan    = 0.35   // V, from empty to full
	simCellR          = 0.0008 // ohm per cell
	simNominalV       = simCells * (simCellOCVEmpty + simCellOCVSpan/2)
	simAmbientC       = 25.0
	simThermalTau     = 30 * time.Minute
	simSlowChargeFrac = 0.1 // of rated power: how fast peak shaving and backup recharge
	simBackupFrac     = 0.5 // of rated power: how fast backup mode recharges to its reserve
)

// simState is what the simulated BMS and PCS know; registers are rendered from it.
type simState struct {
	capWh, ratedW float64

	soc, soh                       float64 // %
	mode                           int     // index in vendorModes
	peakLimitW                     float64
	reserveSoC, minSoC, maxSoC     float64 // %
	setOp, setInvState, ctrlHb     uint16
	wSetEna, wSetMod               uint16
	wSetW, wSetPct                 float64
	alarms                         map[string]bool
	faulted                        bool    // latched by a fault alarm until a fault reset with no fault alarm active
	batW, loadW, pvW, gridW        float64 // battery power + discharge; grid + import
	chargedWh, dischargedWh, tempC float64
}

func (st *simState) running() bool { return st.setOp == setOpConnect }

// faultActive reports whether an alarm that stops the unit is raised now.
func (st *simState) faultActive() bool {
	for code, on := range st.alarms {
		if on && isFault(code) {
			return true
		}
	}
	return false
}

// pcsState is PCS.State.
func (st *simState) pcsState() string {
	switch {
	case st.faulted:
		return ess.StateFault
	case !st.running():
		return ess.StateOff
	case st.batW < -0.5:
		return ess.StateCharging
	case st.batW > 0.5:
		return ess.StateDischarging
	default:
		return ess.StateStandby
	}
}

// setpoint is the manual-mode power the 704 controls ask for, W (+ discharge).
func (st *simState) setpoint() float64 {
	if st.wSetEna != wSetEnabled {
		return 0
	}
	if st.wSetMod == wSetModPct {
		return st.wSetPct / 100 * st.ratedW
	}
	return st.wSetW
}

// floorSoC is the charge below which the unit does not discharge: the backup reserve is kept
// for an outage in every automatic mode; manual mode stops at MinSoC only.
func (st *simState) floorSoC() float64 {
	if vendorModes[st.mode] == ess.ModeManual {
		return st.minSoC
	}
	return max(st.minSoC, st.reserveSoC)
}

// target is the battery power the operating mode asks for, before limits.
func (st *simState) target(loadW, pvW float64) float64 {
	net := loadW - pvW // what the site would import without the battery
	switch vendorModes[st.mode] {
	case ess.ModeSelfConsumption:
		return net
	case ess.ModePeakShaving:
		if net > st.peakLimitW {
			return net - st.peakLimitW
		}
		// Below the limit: recharge slowly without pushing the import over it, and take any
		// PV surplus that is larger.
		return min(-min(simSlowChargeFrac*st.ratedW, st.peakLimitW-net), net)
	case ess.ModeBackup:
		p := min(net, 0) // keep PV surplus, never discharge
		if st.soc < st.reserveSoC {
			p = min(p, -simBackupFrac*st.ratedW)
		}
		return p
	default:
		return st.setpoint()
	}
}

// limit applies the rates, the SoC window and the run state to p over a step of h hours (h 0:
// only whether the window allows that direction at all).
func (st *simState) limit(p, h float64) float64 {
	if !st.running() || st.faulted {
		return 0
	}
	p = min(max(p, -st.ratedW), st.ratedW)
	if p > 0 {
		avail := (st.soc - st.floorSoC()) / 100 * st.capWh
		switch {
		case avail <= 0:
			p = 0
		case h > 0:
			p = min(p, avail/h)
		}
	}
	if p < 0 {
		room := (st.maxSoC - st.soc) / 100 * st.capWh
		switch {
		case room <= 0:
			p = 0
		case h > 0:
			p = max(p, -room/h)
		}
	}
	return p
}

// step advances the state by dt with the site at loadW and pvW; dt 0 only settles the power
// and state after a write or an alarm, so a read-back sees the unit's answer at once.
func (st *simState) step(dt time.Duration, loadW, pvW float64) {
	h := dt.Hours()
	p := st.limit(st.target(loadW, pvW), h)
	st.soc = min(max(st.soc-p*h/st.capWh*100, 0), 100)
	if p < 0 {
		st.chargedWh += -p * h
	} else {
		st.dischargedWh += p * h
	}
	target := simAmbientC + 10*math.Abs(p)/st.ratedW
	st.tempC += (target - st.tempC) * (1 - math.Exp(-dt.Seconds()/simThermalTau.Seconds()))
	st.batW, st.loadW, st.pvW = p, loadW, pvW
	st.gridW = loadW - pvW - p
}

// cells is the bank as its BMS measures it.
type cells struct {
	V, A             float64 // pack voltage; current + discharge
	VMin, VMax, VAvg float64 // per cell
	TMin, TMax, TAvg float64 // per module, °C
	VMinMod, VMaxMod uint16
	TMinMod, TMaxMod uint16
}

func (st *simState) cells() cells {
	ocv := simCells * (simCellOCVEmpty + simCellOCVSpan*st.soc/100)
	a := st.batW / ocv
	v := ocv - a*simCells*simCellR
	avg := v / simCells
	load := math.Abs(st.batW) / st.ratedW
	return cells{
		V: v, A: a,
		VMin: avg - 0.010 - 0.010*load, VMax: avg + 0.012 + 0.010*load, VAvg: avg,
		TMin: st.tempC - 1.0, TMax: st.tempC + 1.5 + 2*load, TAvg: st.tempC,
		VMinMod: 11, VMaxMod: 3, TMinMod: 1, TMaxMod: 7,
	}
}

// dayProfile is the default site: PV rises at 06:00, peaks at noon at the rated power and sets
// at 18:00; the load has a base, a morning bump and an evening peak at 19:00, in the clock's
// time zone.
func dayProfile(ratedW float64) func(time.Time) (loadW, pvW float64) {
	return func(t time.Time) (float64, float64) {
		h := float64(t.Hour()) + float64(t.Minute())/60 + float64(t.Second())/3600
		pv := 0.0
		if h > 6 && h < 18 {
			pv = ratedW * math.Sin(math.Pi*(h-6)/12)
		}
		bump := func(at, width float64) float64 { d := (h - at) / width; return math.Exp(-d * d) }
		load := ratedW * (0.2 + 0.55*bump(19, 2) + 0.15*bump(8, 1.5))
		return load, pv
	}
}
