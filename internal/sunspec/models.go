package sunspec

// The layouts of the standard SunSpec models this package reads and serves, point by point, in
// the order of the official definitions (github.com/sunspec/models, json/model_<id>.json). Every
// point is listed, simulated or not, so that offsets and lengths come from the same table: a
// point's offset is the sum of the sizes before it, and a model's length L is the sum of all.

// Official model lengths (L, registers after ID and L), as json/model_<id>.json in
// github.com/sunspec/models defines them. The tables below must add up to these.
const (
	lenCommon       = 66  // json/model_1.json
	lenDERMeasureAC = 153 // json/model_701.json
	lenDERCapacity  = 50  // json/model_702.json
	lenDERCtlAC     = 65  // json/model_704.json
	lenBattery      = 62  // json/model_802.json
	lenLiIonBank    = 26  // json/model_803.json, fixed part; plus lenLiIonString per string (NStr)
	lenLiIonString  = 32  // json/model_803.json, the repeating "string" group
)

// Model IDs.
const (
	idCommon       = 1
	idDERMeasureAC = 701
	idDERCapacity  = 702
	idDERCtlAC     = 704
	idBattery      = 802
	idLiIonBank    = 803
	idEnd          = 0xFFFF
)

// Enumerations of the standard models this package writes or interprets (values from the
// official definitions' symbols).
const (
	// 701 InvSt
	invStOff          = 0
	invStSleeping     = 1
	invStStarting     = 2
	invStRunning      = 3
	invStThrottled    = 4
	invStShuttingDown = 5
	invStFault        = 6
	invStStandby      = 7

	// 704 WSetEna / WSetMod
	wSetDisabled = 0
	wSetEnabled  = 1
	wSetModPct   = 0 // W_MAX_PCT
	wSetModWatts = 1 // WATTS

	// 802 SetOp, SetInvState, State, ChaSt
	setOpConnect          = 1
	setOpDisconnect       = 2
	setInvStateStopped    = 1
	setInvStateStandby    = 2
	setInvStateStarted    = 3
	bankDisconnected      = 1
	bankConnected         = 3
	bankStandby           = 4
	bankFault             = 99
	chaStOff              = 1
	chaStEmpty            = 2
	chaStDischarging      = 3
	chaStCharging         = 4
	chaStFull             = 5
	chaStHolding          = 6
	batteryTypeLithiumIon = 4
)

var modelCommon = &model{ID: idCommon, Name: "common", Points: []point{
	{"Mn", tString, 16, ""}, {"Md", tString, 16, ""}, {"Opt", tString, 8, ""},
	{"Vr", tString, 8, ""}, {"SN", tString, 16, ""}, {"DA", tUint16, 0, ""},
	{"Pad", tPad, 0, ""},
}}

var modelDERMeasureAC = &model{ID: idDERMeasureAC, Name: "DERMeasureAC", Points: []point{
	{"ACType", tEnum16, 0, ""}, {"St", tEnum16, 0, ""}, {"InvSt", tEnum16, 0, ""},
	{"ConnSt", tEnum16, 0, ""}, {"Alrm", tBitfield32, 0, ""}, {"DERMode", tBitfield32, 0, ""},
	{"W", tInt16, 0, "W_SF"}, {"VA", tInt16, 0, "VA_SF"}, {"Var", tInt16, 0, "Var_SF"},
	{"PF", tInt16, 0, "PF_SF"}, {"A", tInt16, 0, "A_SF"}, {"LLV", tUint16, 0, "V_SF"},
	{"LNV", tUint16, 0, "V_SF"}, {"Hz", tUint32, 0, "Hz_SF"}, {"TotWhInj", tUint64, 0, "TotWh_SF"},
	{"TotWhAbs", tUint64, 0, "TotWh_SF"}, {"TotVarhInj", tUint64, 0, "TotVarh_SF"}, {"TotVarhAbs", tUint64, 0, "TotVarh_SF"},
	{"TmpAmb", tInt16, 0, "Tmp_SF"}, {"TmpCab", tInt16, 0, "Tmp_SF"}, {"TmpSnk", tInt16, 0, "Tmp_SF"},
	{"TmpTrns", tInt16, 0, "Tmp_SF"}, {"TmpSw", tInt16, 0, "Tmp_SF"}, {"TmpOt", tInt16, 0, "Tmp_SF"},
	{"WL1", tInt16, 0, "W_SF"}, {"VAL1", tInt16, 0, "VA_SF"}, {"VarL1", tInt16, 0, "Var_SF"},
	{"PFL1", tInt16, 0, "PF_SF"}, {"AL1", tInt16, 0, "A_SF"}, {"VL1L2", tUint16, 0, "V_SF"},
	{"VL1", tUint16, 0, "V_SF"}, {"TotWhInjL1", tUint64, 0, "TotWh_SF"}, {"TotWhAbsL1", tUint64, 0, "TotWh_SF"},
	{"TotVarhInjL1", tUint64, 0, "TotVarh_SF"}, {"TotVarhAbsL1", tUint64, 0, "TotVarh_SF"}, {"WL2", tInt16, 0, "W_SF"},
	{"VAL2", tInt16, 0, "VA_SF"}, {"VarL2", tInt16, 0, "Var_SF"}, {"PFL2", tInt16, 0, "PF_SF"},
	{"AL2", tInt16, 0, "A_SF"}, {"VL2L3", tUint16, 0, "V_SF"}, {"VL2", tUint16, 0, "V_SF"},
	{"TotWhInjL2", tUint64, 0, "TotWh_SF"}, {"TotWhAbsL2", tUint64, 0, "TotWh_SF"}, {"TotVarhInjL2", tUint64, 0, "TotVarh_SF"},
	{"TotVarhAbsL2", tUint64, 0, "TotVarh_SF"}, {"WL3", tInt16, 0, "W_SF"}, {"VAL3", tInt16, 0, "VA_SF"},
	{"VarL3", tInt16, 0, "Var_SF"}, {"PFL3", tInt16, 0, "PF_SF"}, {"AL3", tInt16, 0, "A_SF"},
	{"VL3L1", tUint16, 0, "V_SF"}, {"VL3", tUint16, 0, "V_SF"}, {"TotWhInjL3", tUint64, 0, "TotWh_SF"},
	{"TotWhAbsL3", tUint64, 0, "TotWh_SF"}, {"TotVarhInjL3", tUint64, 0, "TotVarh_SF"}, {"TotVarhAbsL3", tUint64, 0, "TotVarh_SF"},
	{"ThrotPct", tUint16, 0, ""}, {"ThrotSrc", tBitfield32, 0, ""}, {"A_SF", tSunssf, 0, ""},
	{"V_SF", tSunssf, 0, ""}, {"Hz_SF", tSunssf, 0, ""}, {"W_SF", tSunssf, 0, ""},
	{"PF_SF", tSunssf, 0, ""}, {"VA_SF", tSunssf, 0, ""}, {"Var_SF", tSunssf, 0, ""},
	{"TotWh_SF", tSunssf, 0, ""}, {"TotVarh_SF", tSunssf, 0, ""}, {"Tmp_SF", tSunssf, 0, ""},
	{"MnAlrmInfo", tString, 32, ""},
}}

var modelDERCapacity = &model{ID: idDERCapacity, Name: "DERCapacity", Points: []point{
	{"WMaxRtg", tUint16, 0, "W_SF"}, {"WOvrExtRtg", tUint16, 0, "W_SF"}, {"WOvrExtRtgPF", tUint16, 0, "PF_SF"},
	{"WUndExtRtg", tUint16, 0, "W_SF"}, {"WUndExtRtgPF", tUint16, 0, "PF_SF"}, {"VAMaxRtg", tUint16, 0, "VA_SF"},
	{"VarMaxInjRtg", tUint16, 0, "Var_SF"}, {"VarMaxAbsRtg", tUint16, 0, "Var_SF"}, {"WChaRteMaxRtg", tUint16, 0, "W_SF"},
	{"WDisChaRteMaxRtg", tUint16, 0, "W_SF"}, {"VAChaRteMaxRtg", tUint16, 0, "VA_SF"}, {"VADisChaRteMaxRtg", tUint16, 0, "VA_SF"},
	{"VNomRtg", tUint16, 0, "V_SF"}, {"VMaxRtg", tUint16, 0, "V_SF"}, {"VMinRtg", tUint16, 0, "V_SF"},
	{"AMaxRtg", tUint16, 0, "A_SF"}, {"PFOvrExtRtg", tUint16, 0, "PF_SF"}, {"PFUndExtRtg", tUint16, 0, "PF_SF"},
	{"ReactSusceptRtg", tUint16, 0, "S_SF"}, {"NorOpCatRtg", tEnum16, 0, ""}, {"AbnOpCatRtg", tEnum16, 0, ""},
	{"CtrlModes", tBitfield32, 0, ""}, {"IntIslandCatRtg", tBitfield16, 0, ""}, {"WMax", tUint16, 0, "W_SF"},
	{"WMaxOvrExt", tUint16, 0, "W_SF"}, {"WOvrExtPF", tUint16, 0, "PF_SF"}, {"WMaxUndExt", tUint16, 0, "W_SF"},
	{"WUndExtPF", tUint16, 0, "PF_SF"}, {"VAMax", tUint16, 0, "VA_SF"}, {"VarMaxInj", tUint16, 0, "Var_SF"},
	{"VarMaxAbs", tUint16, 0, "Var_SF"}, {"WChaRteMax", tUint16, 0, "W_SF"}, {"WDisChaRteMax", tUint16, 0, "W_SF"},
	{"VAChaRteMax", tUint16, 0, "VA_SF"}, {"VADisChaRteMax", tUint16, 0, "VA_SF"}, {"VNom", tUint16, 0, "V_SF"},
	{"VMax", tUint16, 0, "V_SF"}, {"VMin", tUint16, 0, "V_SF"}, {"AMax", tUint16, 0, "A_SF"},
	{"PFOvrExt", tUint16, 0, "PF_SF"}, {"PFUndExt", tUint16, 0, "PF_SF"}, {"IntIslandCat", tBitfield16, 0, ""},
	{"W_SF", tSunssf, 0, ""}, {"PF_SF", tSunssf, 0, ""}, {"VA_SF", tSunssf, 0, ""},
	{"Var_SF", tSunssf, 0, ""}, {"V_SF", tSunssf, 0, ""}, {"A_SF", tSunssf, 0, ""},
	{"S_SF", tSunssf, 0, ""},
}}

// The four power-factor groups of 704 occur once each; they are flattened as "Group.Point".
var modelDERCtlAC = &model{ID: idDERCtlAC, Name: "DERCtlAC", Points: []point{
	{"PFWInjEna", tEnum16, 0, ""}, {"PFWInjEnaRvrt", tEnum16, 0, ""}, {"PFWInjRvrtTms", tUint32, 0, ""},
	{"PFWInjRvrtRem", tUint32, 0, ""}, {"PFWAbsEna", tEnum16, 0, ""}, {"PFWAbsEnaRvrt", tEnum16, 0, ""},
	{"PFWAbsRvrtTms", tUint32, 0, ""}, {"PFWAbsRvrtRem", tUint32, 0, ""}, {"WMaxLimPctEna", tEnum16, 0, ""},
	{"WMaxLimPct", tUint16, 0, "WMaxLimPct_SF"}, {"WMaxLimPctRvrt", tUint16, 0, "WMaxLimPct_SF"}, {"WMaxLimPctEnaRvrt", tEnum16, 0, ""},
	{"WMaxLimPctRvrtTms", tUint32, 0, ""}, {"WMaxLimPctRvrtRem", tUint32, 0, ""}, {"WSetEna", tEnum16, 0, ""},
	{"WSetMod", tEnum16, 0, ""}, {"WSet", tInt32, 0, "WSet_SF"}, {"WSetRvrt", tInt32, 0, "WSet_SF"},
	{"WSetPct", tInt16, 0, "WSetPct_SF"}, {"WSetPctRvrt", tInt16, 0, "WSetPct_SF"}, {"WSetEnaRvrt", tEnum16, 0, ""},
	{"WSetRvrtTms", tUint32, 0, ""}, {"WSetRvrtRem", tUint32, 0, ""}, {"VarSetEna", tEnum16, 0, ""},
	{"VarSetMod", tEnum16, 0, ""}, {"VarSetPri", tEnum16, 0, ""}, {"VarSet", tInt32, 0, "VarSet_SF"},
	{"VarSetRvrt", tInt32, 0, "VarSet_SF"}, {"VarSetPct", tInt16, 0, "VarSetPct_SF"}, {"VarSetPctRvrt", tInt16, 0, "VarSetPct_SF"},
	{"VarSetEnaRvrt", tEnum16, 0, ""}, {"VarSetRvrtTms", tUint32, 0, ""}, {"VarSetRvrtRem", tUint32, 0, ""},
	{"WRmp", tUint16, 0, ""}, {"WRmpRef", tEnum16, 0, ""}, {"VarRmp", tUint16, 0, ""},
	{"AntiIslEna", tEnum16, 0, ""}, {"PF_SF", tSunssf, 0, ""}, {"WMaxLimPct_SF", tSunssf, 0, ""},
	{"WSet_SF", tSunssf, 0, ""}, {"WSetPct_SF", tSunssf, 0, ""}, {"VarSet_SF", tSunssf, 0, ""},
	{"VarSetPct_SF", tSunssf, 0, ""}, {"PFWInj.PF", tUint16, 0, "PF_SF"}, {"PFWInj.Ext", tEnum16, 0, ""},
	{"PFWInjRvrt.PF", tUint16, 0, "PF_SF"}, {"PFWInjRvrt.Ext", tEnum16, 0, ""}, {"PFWAbs.PF", tUint16, 0, "PF_SF"},
	{"PFWAbs.Ext", tEnum16, 0, ""}, {"PFWAbsRvrt.PF", tUint16, 0, "PF_SF"}, {"PFWAbsRvrt.Ext", tEnum16, 0, ""},
}}

var modelBattery = &model{ID: idBattery, Name: "battery", Points: []point{
	{"AHRtg", tUint16, 0, "AHRtg_SF"}, {"WHRtg", tUint16, 0, "WHRtg_SF"}, {"WChaRteMax", tUint16, 0, "WChaDisChaMax_SF"},
	{"WDisChaRteMax", tUint16, 0, "WChaDisChaMax_SF"}, {"DisChaRte", tUint16, 0, "DisChaRte_SF"}, {"SoCMax", tUint16, 0, "SoC_SF"},
	{"SoCMin", tUint16, 0, "SoC_SF"}, {"SocRsvMax", tUint16, 0, "SoC_SF"}, {"SoCRsvMin", tUint16, 0, "SoC_SF"},
	{"SoC", tUint16, 0, "SoC_SF"}, {"DoD", tUint16, 0, "DoD_SF"}, {"SoH", tUint16, 0, "SoH_SF"},
	{"NCyc", tUint32, 0, ""}, {"ChaSt", tEnum16, 0, ""}, {"LocRemCtl", tEnum16, 0, ""},
	{"Hb", tUint16, 0, ""}, {"CtrlHb", tUint16, 0, ""}, {"AlmRst", tUint16, 0, ""},
	{"Typ", tEnum16, 0, ""}, {"State", tEnum16, 0, ""}, {"StateVnd", tEnum16, 0, ""},
	{"WarrDt", tUint32, 0, ""}, {"Evt1", tBitfield32, 0, ""}, {"Evt2", tBitfield32, 0, ""},
	{"EvtVnd1", tBitfield32, 0, ""}, {"EvtVnd2", tBitfield32, 0, ""}, {"V", tUint16, 0, "V_SF"},
	{"VMax", tUint16, 0, "V_SF"}, {"VMin", tUint16, 0, "V_SF"}, {"CellVMax", tUint16, 0, "CellV_SF"},
	{"CellVMaxStr", tUint16, 0, ""}, {"CellVMaxMod", tUint16, 0, ""}, {"CellVMin", tUint16, 0, "CellV_SF"},
	{"CellVMinStr", tUint16, 0, ""}, {"CellVMinMod", tUint16, 0, ""}, {"CellVAvg", tUint16, 0, "CellV_SF"},
	{"A", tInt16, 0, "A_SF"}, {"AChaMax", tUint16, 0, "AMax_SF"}, {"ADisChaMax", tUint16, 0, "AMax_SF"},
	{"W", tInt16, 0, "W_SF"}, {"ReqInvState", tEnum16, 0, ""}, {"ReqW", tInt16, 0, "W_SF"},
	{"SetOp", tEnum16, 0, ""}, {"SetInvState", tEnum16, 0, ""}, {"AHRtg_SF", tSunssf, 0, ""},
	{"WHRtg_SF", tSunssf, 0, ""}, {"WChaDisChaMax_SF", tSunssf, 0, ""}, {"DisChaRte_SF", tSunssf, 0, ""},
	{"SoC_SF", tSunssf, 0, ""}, {"DoD_SF", tSunssf, 0, ""}, {"SoH_SF", tSunssf, 0, ""},
	{"V_SF", tSunssf, 0, ""}, {"CellV_SF", tSunssf, 0, ""}, {"A_SF", tSunssf, 0, ""},
	{"AMax_SF", tSunssf, 0, ""}, {"W_SF", tSunssf, 0, ""},
}}

// 803 ends with a "string" group repeated NStr times.
var modelLiIonBank = &model{ID: idLiIonBank, Name: "lithium_ion_bank", Points: []point{
	{"NStr", tUint16, 0, ""}, {"NStrCon", tUint16, 0, ""}, {"ModTmpMax", tInt16, 0, "ModTmp_SF"},
	{"ModTmpMaxStr", tUint16, 0, ""}, {"ModTmpMaxMod", tUint16, 0, ""}, {"ModTmpMin", tInt16, 0, "ModTmp_SF"},
	{"ModTmpMinStr", tUint16, 0, ""}, {"ModTmpMinMod", tUint16, 0, ""}, {"ModTmpAvg", tInt16, 0, "ModTmp_SF"},
	{"StrVMax", tUint16, 0, "V_SF"}, {"StrVMaxStr", tUint16, 0, ""}, {"StrVMin", tUint16, 0, "V_SF"},
	{"StrVMinStr", tUint16, 0, ""}, {"StrVAvg", tUint16, 0, "V_SF"}, {"StrAMax", tInt16, 0, "A_SF"},
	{"StrAMaxStr", tUint16, 0, ""}, {"StrAMin", tInt16, 0, "A_SF"}, {"StrAMinStr", tUint16, 0, ""},
	{"StrAAvg", tInt16, 0, "A_SF"}, {"NCellBal", tUint16, 0, ""}, {"CellV_SF", tSunssf, 0, ""},
	{"ModTmp_SF", tSunssf, 0, ""}, {"A_SF", tSunssf, 0, ""}, {"SoH_SF", tSunssf, 0, ""},
	{"SoC_SF", tSunssf, 0, ""}, {"V_SF", tSunssf, 0, ""},
}, Group: []point{
	{"StrNMod", tUint16, 0, ""}, {"StrSt", tBitfield32, 0, ""}, {"StrConFail", tEnum16, 0, ""},
	{"StrSoC", tUint16, 0, "SoC_SF"}, {"StrSoH", tUint16, 0, "SoH_SF"}, {"StrA", tInt16, 0, "A_SF"},
	{"StrCellVMax", tUint16, 0, "CellV_SF"}, {"StrCellVMaxMod", tUint16, 0, ""}, {"StrCellVMin", tUint16, 0, "CellV_SF"},
	{"StrCellVMinMod", tUint16, 0, ""}, {"StrCellVAvg", tUint16, 0, "CellV_SF"}, {"StrModTmpMax", tInt16, 0, "ModTmp_SF"},
	{"StrModTmpMaxMod", tUint16, 0, ""}, {"StrModTmpMin", tInt16, 0, "ModTmp_SF"}, {"StrModTmpMinMod", tUint16, 0, ""},
	{"StrModTmpAvg", tInt16, 0, "ModTmp_SF"}, {"StrDisRsn", tEnum16, 0, ""}, {"StrConSt", tBitfield32, 0, ""},
	{"StrEvt1", tBitfield32, 0, ""}, {"StrEvt2", tBitfield32, 0, ""}, {"StrEvtVnd1", tBitfield32, 0, ""},
	{"StrEvtVnd2", tBitfield32, 0, ""}, {"StrSetEna", tEnum16, 0, ""}, {"StrSetCon", tEnum16, 0, ""},
	{"Pad1", tPad, 0, ""}, {"Pad2", tPad, 0, ""},
}}
