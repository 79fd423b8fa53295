package sunspec

import (
	"math"
	"slices"

	"chargeops/internal/ess"
)

// simBase is where the simulator serves the "SunS" marker, the usual SunSpec base.
const simBase = 40000

// sunsMarker is "SunS" as two registers.
var sunsMarker = []uint16{0x5375, 0x6E53}

// simImage is the simulator's register map from simBase: the marker, the models in order and
// the end model.
type simImage struct {
	r                                        []uint16
	common, meas, capa, ctl, bat, bank, vend *block
}

// simScale are the scale factors the simulator serves, fixed at start from its ratings so that
// the largest value fits its register.
type simScale struct {
	w, wh, ah, rate int
}

// chooseSF is the smallest exponent from lo up at which v fits below limit.
func chooseSF(v, limit float64, lo int) int {
	sf := lo
	for v/math.Pow10(sf) > limit && sf < 10 {
		sf++
	}
	return sf
}

func newSimImage(opt SimOptions) *simImage {
	layout := []struct {
		m *model
		n int
	}{
		{modelCommon, 0}, {modelDERMeasureAC, 0}, {modelDERCapacity, 0}, {modelDERCtlAC, 0},
		{modelBattery, 0}, {modelLiIonBank, 1}, {modelVendor, 0},
	}
	size := 2 + 2
	for _, l := range layout {
		size += 2 + int(l.m.length(l.n))
	}
	img := &simImage{r: make([]uint16, size)}
	copy(img.r, sunsMarker)
	off := 2
	blocks := make([]*block, len(layout))
	for i, l := range layout {
		end := off + 2 + int(l.m.length(l.n))
		blocks[i] = newBlock(l.m, uint16(simBase+off), l.n, img.r[off:end])
		off = end
	}
	img.r[off], img.r[off+1] = idEnd, 0
	img.common, img.meas, img.capa, img.ctl = blocks[0], blocks[1], blocks[2], blocks[3]
	img.bat, img.bank, img.vend = blocks[4], blocks[5], blocks[6]
	img.static(opt)
	return img
}

// static sets what does not change while the simulator runs: identity, ratings, scale factors.
func (img *simImage) static(opt SimOptions) {
	sc := simScale{
		w:    chooseSF(opt.RatedPowerW, math.MaxInt16, 0),
		wh:   chooseSF(opt.CapacityWh, math.MaxUint16-1, 0),
		ah:   chooseSF(opt.CapacityWh/simNominalV, math.MaxUint16-1, -1),
		rate: chooseSF(opt.RatedPowerW, math.MaxUint16-1, 0),
	}

	c := img.common
	c.setStr("Mn", opt.Vendor)
	c.setStr("Md", opt.Model)
	c.setStr("Vr", simVersion)
	c.setStr("SN", opt.Serial)
	c.setInt("DA", int64(opt.UnitID))

	m := img.meas
	for name, sf := range map[string]int{"A_SF": -1, "V_SF": -1, "Hz_SF": -2, "W_SF": sc.w, "VA_SF": sc.w, "Var_SF": sc.w, "TotWh_SF": 0, "Tmp_SF": -1} {
		m.setInt(name, int64(sf))
	}
	m.setInt("ACType", 2)  // THREE_PHASE
	m.setInt("DERMode", 1) // GRID_FOLLOWING

	k := img.capa
	for name, sf := range map[string]int{"W_SF": sc.rate, "VA_SF": sc.rate, "V_SF": -1} {
		k.setInt(name, int64(sf))
	}
	for _, name := range []string{"WMaxRtg", "VAMaxRtg", "WChaRteMaxRtg", "WDisChaRteMaxRtg", "WMax", "VAMax", "WChaRteMax", "WDisChaRteMax"} {
		k.setValue(name, opt.RatedPowerW)
	}
	k.setValue("VNomRtg", 400)
	k.setValue("VNom", 400)
	k.setInt("CtrlModes", 1<<1) // FIXED_W: the 704 active power setpoint

	ctl := img.ctl
	ctl.setInt("WSet_SF", 0)
	ctl.setInt("WSetPct_SF", -2)

	b := img.bat
	for name, sf := range map[string]int{"AHRtg_SF": sc.ah, "WHRtg_SF": sc.wh, "WChaDisChaMax_SF": sc.rate, "SoC_SF": -1, "DoD_SF": -1, "SoH_SF": -1, "V_SF": -1, "CellV_SF": -3, "A_SF": -1, "AMax_SF": -1, "W_SF": sc.w} {
		b.setInt(name, int64(sf))
	}
	b.setValue("AHRtg", opt.CapacityWh/simNominalV)
	b.setValue("WHRtg", opt.CapacityWh)
	b.setValue("WChaRteMax", opt.RatedPowerW)
	b.setValue("WDisChaRteMax", opt.RatedPowerW)
	b.setValue("SoCMax", 100)
	b.setValue("SoCMin", 0)
	b.setInt("LocRemCtl", 0) // REMOTE
	b.setInt("Typ", batteryTypeLithiumIon)
	b.setInt("Evt2", 0)
	b.setInt("EvtVnd1", 0)
	b.setInt("EvtVnd2", 0)
	b.setValue("VMax", simCells*3.65)
	b.setValue("VMin", simCells*2.5)
	b.setValue("AChaMax", opt.RatedPowerW/simNominalV)
	b.setValue("ADisChaMax", opt.RatedPowerW/simNominalV)
	b.setInt("ReqInvState", 0) // NO_REQUEST

	n := img.bank
	for name, sf := range map[string]int{"CellV_SF": -3, "ModTmp_SF": -1, "A_SF": -1, "SoH_SF": -1, "SoC_SF": -1, "V_SF": -1} {
		n.setInt(name, int64(sf))
	}
	n.setInt("NStr", 1)
	n.setInt(groupKey("StrNMod", 0), simModules)
	n.setInt(groupKey("StrConFail", 0), 0)
	n.setInt(groupKey("StrDisRsn", 0), 0)
	n.setInt(groupKey("StrEvt2", 0), 0)

	img.vend.setInt("SoC_SF", vendorSoCSF)
}

// render writes the state into the registers that change.
func (img *simImage) render(st *simState) {
	cl := st.cells()
	running := st.running()
	faulted := st.faulted

	m := img.meas
	st701, inv, conn := 0, invStOff, 0
	switch {
	case faulted:
		inv = invStFault
	case !running:
	case math.Abs(st.batW) < 0.5:
		st701, inv, conn = 1, invStStandby, 1
	default:
		st701, inv, conn = 1, invStRunning, 1
	}
	m.setInt("St", int64(st701))
	m.setInt("InvSt", int64(inv))
	m.setInt("ConnSt", int64(conn))
	m.setInt("Alrm", int64(codesToBits(derAlrm, st.alarms)))
	m.setValue("W", st.batW)
	m.setValue("VA", math.Abs(st.batW))
	m.setValue("Var", 0)
	m.setValue("A", math.Abs(st.batW)/(math.Sqrt(3)*400))
	m.setValue("LLV", 400)
	m.setValue("LNV", 400/math.Sqrt(3))
	m.setValue("Hz", 50)
	m.setValue("TotWhInj", math.Floor(st.dischargedWh))
	m.setValue("TotWhAbs", math.Floor(st.chargedWh))
	m.setValue("TmpCab", st.tempC+3)

	ctl := img.ctl
	ctl.setInt("WSetEna", int64(st.wSetEna))
	ctl.setInt("WSetMod", int64(st.wSetMod))
	ctl.setValue("WSet", st.wSetW)
	ctl.setValue("WSetPct", st.wSetPct)

	b := img.bat
	b.setValue("SocRsvMax", st.maxSoC)
	b.setValue("SoCRsvMin", st.minSoC)
	b.setValue("SoC", st.soc)
	b.setValue("DoD", 100-st.soc)
	b.setValue("SoH", st.soh)
	b.setInt("NCyc", int64(st.dischargedWh/st.capWh))
	b.setInt("ChaSt", int64(st.chargeStatus()))
	b.setInt("CtrlHb", int64(st.ctrlHb))
	b.setInt("AlmRst", 0) // a reset is done by the time anyone reads it
	bank := bankConnected
	switch {
	case faulted:
		bank = bankFault
	case !running:
		bank = bankDisconnected
	}
	b.setInt("State", int64(bank))
	evt := int64(codesToBits(batteryEvt1, st.alarms))
	b.setInt("Evt1", evt)
	b.setValue("V", cl.V)
	b.setValue("CellVMax", cl.VMax)
	b.setInt("CellVMaxStr", 1)
	b.setInt("CellVMaxMod", int64(cl.VMaxMod))
	b.setValue("CellVMin", cl.VMin)
	b.setInt("CellVMinStr", 1)
	b.setInt("CellVMinMod", int64(cl.VMinMod))
	b.setValue("CellVAvg", cl.VAvg)
	b.setValue("A", cl.A)
	b.setValue("W", st.batW)
	b.setInt("SetOp", int64(st.setOp))
	b.setInt("SetInvState", int64(st.setInvState))

	n := img.bank
	strCon := int64(0)
	if running && !faulted {
		strCon = 1
	}
	n.setInt("NStrCon", strCon)
	n.setValue("ModTmpMax", cl.TMax)
	n.setInt("ModTmpMaxStr", 1)
	n.setInt("ModTmpMaxMod", int64(cl.TMaxMod))
	n.setValue("ModTmpMin", cl.TMin)
	n.setInt("ModTmpMinStr", 1)
	n.setInt("ModTmpMinMod", int64(cl.TMinMod))
	n.setValue("ModTmpAvg", cl.TAvg)
	for _, name := range []string{"StrVMax", "StrVMin", "StrVAvg"} {
		n.setValue(name, cl.V)
	}
	for _, name := range []string{"StrAMax", "StrAMin", "StrAAvg"} {
		n.setValue(name, cl.A)
	}
	n.setInt("StrVMaxStr", 1)
	n.setInt("StrVMinStr", 1)
	n.setInt("StrAMaxStr", 1)
	n.setInt("StrAMinStr", 1)
	n.setInt("NCellBal", 0)
	g := func(name string) string { return groupKey(name, 0) }
	n.setInt(g("StrSt"), 1|strCon<<1) // STRING_ENABLED, CONTACTOR_STATUS
	n.setValue(g("StrSoC"), st.soc)
	n.setValue(g("StrSoH"), st.soh)
	n.setValue(g("StrA"), cl.A)
	n.setValue(g("StrCellVMax"), cl.VMax)
	n.setInt(g("StrCellVMaxMod"), int64(cl.VMaxMod))
	n.setValue(g("StrCellVMin"), cl.VMin)
	n.setInt(g("StrCellVMinMod"), int64(cl.VMinMod))
	n.setValue(g("StrCellVAvg"), cl.VAvg)
	n.setValue(g("StrModTmpMax"), cl.TMax)
	n.setInt(g("StrModTmpMaxMod"), int64(cl.TMaxMod))
	n.setValue(g("StrModTmpMin"), cl.TMin)
	n.setInt(g("StrModTmpMinMod"), int64(cl.TMinMod))
	n.setValue(g("StrModTmpAvg"), cl.TAvg)
	n.setInt(g("StrConSt"), strCon)
	n.setInt(g("StrEvt1"), evt)

	v := img.vend
	v.setInt("Mode", int64(st.mode))
	v.setInt("PeakLimitW", int64(math.Round(st.peakLimitW)))
	v.setValue("BackupReserveSoC", st.reserveSoC)
	v.setValue("MinSoC", st.minSoC)
	v.setValue("MaxSoC", st.maxSoC)
	v.setInt("PCSState", int64(slices.Index(vendorStates, st.pcsState())))
	v.setValue("GridW", st.gridW)
	v.setValue("LoadW", st.loadW)
	v.setInt("PCSAlrm", int64(codesToBits(vendorPCSAlrm, st.alarms)))
}

// chargeStatus is 802 ChaSt.
func (st *simState) chargeStatus() int {
	switch {
	case !st.running():
		return chaStOff
	case st.batW < -0.5:
		return chaStCharging
	case st.batW > 0.5:
		return chaStDischarging
	case st.soc >= st.maxSoC:
		return chaStFull
	case st.soc <= st.floorSoC():
		return chaStEmpty
	default:
		return chaStHolding
	}
}

// values are the state in ess names, as Sim.Values reports them.
func (st *simState) values() map[string]any {
	cl := st.cells()
	return map[string]any{
		ess.SoC: st.soc, ess.SoH: st.soh,
		ess.BatteryPower: st.batW, ess.BatteryVoltage: cl.V, ess.BatteryCurrent: cl.A,
		ess.CellVoltageMin: cl.VMin, ess.CellVoltageMax: cl.VMax,
		ess.CellTempMin: cl.TMin, ess.CellTempMax: cl.TMax,
		ess.PCSState: st.pcsState(), ess.PCSMode: vendorModes[st.mode],
		ess.PCSPower: st.batW, ess.PCSSetpoint: st.setpoint(),
		ess.GridPower: st.gridW, ess.LoadPower: st.loadW,
		ess.EnergyCharged: st.chargedWh, ess.EnergyDischarge: st.dischargedWh,
		ess.Capacity: st.capWh, ess.RatedPower: st.ratedW,
	}
}
