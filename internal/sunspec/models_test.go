package sunspec

import (
	"fmt"
	"testing"
)

// The tables must add up to the official lengths, or a real reader walking the chain would
// land in the middle of a model.
func TestModelLengths(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *model
		n    int
		want int
	}{
		{"1 common", modelCommon, 0, lenCommon},
		{"701 DER AC measurement", modelDERMeasureAC, 0, lenDERMeasureAC},
		{"702 DER capacity", modelDERCapacity, 0, lenDERCapacity},
		{"704 DER AC controls", modelDERCtlAC, 0, lenDERCtlAC},
		{"802 battery", modelBattery, 0, lenBattery},
		{"803 lithium-ion bank, no string", modelLiIonBank, 0, lenLiIonBank},
		{"803 lithium-ion bank, two strings", modelLiIonBank, 2, lenLiIonBank + 2*lenLiIonString},
		{"64901 vendor", modelVendor, 0, lenVendor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := int(tc.m.length(tc.n)); got != tc.want {
				t.Errorf("L = %d, want %d", got, tc.want)
			}
		})
	}
}

// Offsets of the points this package relies on, from the ID register, as the official
// definitions (github.com/sunspec/models json/model_<id>.json) place them.
func TestPointOffsets(t *testing.T) {
	for _, tc := range []struct {
		m     *model
		n     int
		point string
		want  uint16
	}{
		{modelCommon, 0, "Mn", 2}, {modelCommon, 0, "Md", 18}, {modelCommon, 0, "Vr", 42}, {modelCommon, 0, "SN", 50},
		{modelDERMeasureAC, 0, "InvSt", 4}, {modelDERMeasureAC, 0, "Alrm", 6}, {modelDERMeasureAC, 0, "W", 10},
		{modelDERMeasureAC, 0, "Hz", 17}, {modelDERMeasureAC, 0, "TotWhInj", 19}, {modelDERMeasureAC, 0, "TotWhAbs", 23},
		{modelDERMeasureAC, 0, "W_SF", 116}, {modelDERMeasureAC, 0, "TotWh_SF", 120}, {modelDERMeasureAC, 0, "MnAlrmInfo", 123},
		{modelDERCapacity, 0, "WMaxRtg", 2}, {modelDERCapacity, 0, "WMax", 26}, {modelDERCapacity, 0, "W_SF", 45},
		{modelDERCtlAC, 0, "WSetEna", 22}, {modelDERCtlAC, 0, "WSetMod", 23}, {modelDERCtlAC, 0, "WSet", 24},
		{modelDERCtlAC, 0, "WSetPct", 28}, {modelDERCtlAC, 0, "WSet_SF", 55}, {modelDERCtlAC, 0, "PFWAbsRvrt.Ext", 66},
		{modelBattery, 0, "WHRtg", 3}, {modelBattery, 0, "SoC", 11}, {modelBattery, 0, "AlmRst", 20},
		{modelBattery, 0, "State", 22}, {modelBattery, 0, "Evt1", 26}, {modelBattery, 0, "V", 34},
		{modelBattery, 0, "CellVMax", 37}, {modelBattery, 0, "CellVMin", 40}, {modelBattery, 0, "A", 44},
		{modelBattery, 0, "W", 47}, {modelBattery, 0, "SetOp", 50}, {modelBattery, 0, "SetInvState", 51},
		{modelBattery, 0, "W_SF", 63},
		{modelLiIonBank, 1, "ModTmpMax", 4}, {modelLiIonBank, 1, "ModTmpMin", 7}, {modelLiIonBank, 1, "V_SF", 27},
		{modelLiIonBank, 1, groupKey("StrNMod", 0), 28}, {modelLiIonBank, 1, groupKey("Pad2", 0), 59},
	} {
		t.Run(fmt.Sprintf("%d %s", tc.m.ID, tc.point), func(t *testing.T) {
			n := int(tc.m.length(tc.n)) + 2
			b := newBlock(tc.m, 0, tc.n, make([]uint16, n))
			if got := b.loc(tc.point).off; got != tc.want {
				t.Errorf("model %d %s at %d, want %d", tc.m.ID, tc.point, got, tc.want)
			}
		})
	}
}

func TestScaleRoundTrip(t *testing.T) {
	b := newBlock(modelBattery, 0, 0, make([]uint16, lenBattery+2))
	b.setInt("CellV_SF", -3)
	b.setValue("CellVMax", 3.256)
	if v, ok := b.value("CellVMax"); !ok || v != 3.256 {
		t.Errorf("CellVMax = %v, %v; want 3.256", v, ok)
	}
	if _, ok := b.value("SoC"); ok {
		t.Error("SoC has no scale factor set, want not implemented")
	}
	if _, err := b.encode("CellVMax", 70); err == nil {
		t.Error("encode 70 V in a uint16 of mV: want out of range")
	}
}
