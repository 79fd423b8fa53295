package sunspec

import "chargeops/internal/ess"

// The chargeops storage control model, ID 64901 (vendor range 64000-65535). Standard SunSpec
// has no point for a storage system's operating mode, its site limits or the site's grid and
// load, so they live here. A vendor who wants chargeops to drive its unit serves this model
// after the standard ones; offsets count from the model's ID register as in the official
// definitions, all values big-endian, 32-bit values high word first.
//
//	offset  name              type        units / values                                    access
//	0       ID                uint16      64901                                             R
//	1       L                 uint16      14                                                R
//	2       Mode              enum16      0 selfConsumption, 1 peakShaving, 2 backup, 3 manual  RW
//	3       PeakLimitW        uint32      W; peak shaving holds the grid import below it     RW
//	5       BackupReserveSoC  uint16      % x 10^SoC_SF; the charge backup holds              RW
//	6       MinSoC            uint16      % x 10^SoC_SF; no discharge below it                RW
//	7       MaxSoC            uint16      % x 10^SoC_SF; no charge above it (> MinSoC)        RW
//	8       SoC_SF            sunssf      scale factor of the three SoC points (-1: 0.1 %)    R
//	9       PCSState          enum16      0 off, 1 standby, 2 charging, 3 discharging, 4 fault R
//	10      GridW             int32       W, site grid connection, + import, - export          R
//	12      LoadW             int32       W, site load                                         R
//	14      PCSAlrm           bitfield32  converter alarms, bits below                         R
//
// The writable points are contiguous (offsets 2-7) so a configuration is one write. PCSAlrm
// bits: 0 grid over-voltage, 1 grid under-voltage, 2 grid over-frequency, 3 grid
// under-frequency, 4 DC over-voltage, 5 over-temperature, 6 ground fault, 7 islanding detected,
// 8 fan fault, 9 hardware fault. Values not implemented read as in SunSpec (0xFFFF, 0x8000,
// 0xFFFFFFFF, 0x80000000).
const idVendor = 64901

var modelVendor = &model{ID: idVendor, Name: "chargeops_storage_control", Points: []point{
	{"Mode", tEnum16, 0, ""}, {"PeakLimitW", tUint32, 0, ""},
	{"BackupReserveSoC", tUint16, 0, "SoC_SF"}, {"MinSoC", tUint16, 0, "SoC_SF"}, {"MaxSoC", tUint16, 0, "SoC_SF"},
	{"SoC_SF", tSunssf, 0, ""}, {"PCSState", tEnum16, 0, ""},
	{"GridW", tInt32, 0, ""}, {"LoadW", tInt32, 0, ""}, {"PCSAlrm", tBitfield32, 0, ""},
}}

// lenVendor is the vendor model's L.
const lenVendor = 14

// vendorModes and vendorStates are the wire values of Mode and PCSState: a value's index. They
// are spelt out rather than taken from ess.Modes and ess.States so that reordering those lists
// cannot change the wire.
var (
	vendorModes  = []string{ess.ModeSelfConsumption, ess.ModePeakShaving, ess.ModeBackup, ess.ModeManual}
	vendorStates = []string{ess.StateOff, ess.StateStandby, ess.StateCharging, ess.StateDischarging, ess.StateFault}
)

// vendorSoCSF is the SoC_SF the simulator serves (0.1 %).
const vendorSoCSF = -1
