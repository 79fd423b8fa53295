package demo

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/app"
	"chargeops/internal/docs"
)

// demoAlarmDocs are the platform's alarm documents for the fault codes the demo's simulated
// chargers report (internal/sim), so the device alarm list shows their names and links
// (docs/docs-wiki.md, "Alarm documents").
var demoAlarmDocs = []struct {
	code, title, name, content string
}{
	{"HighTemperature", "High temperature / 过温保护", "Over-temperature protection",
		`<h2>Cause</h2><p>The charger's internal temperature passed its limit and it stopped charging. 充电桩过温保护后自动恢复。</p><h2>Remedy</h2><ul><li>Check the air inlet and the fan filter for dust.</li><li>Check the ambient temperature and direct sunlight.</li><li>If it repeats more than three times a day, replace the fan.</li></ul>`},
	{"GroundFailure", "Ground failure / 接地故障", "Ground fault",
		`<h2>Cause</h2><p>The residual current device tripped: a leakage current to earth. 接地故障，漏电保护动作。</p><h2>Remedy</h2><ol><li>Isolate the charger and check the cable and the vehicle inlet for damage or water.</li><li>Measure the earth resistance (below 4 Ω).</li><li>Reset the RCD; if it trips again, call the vendor.</li></ol>`},
	{"OverCurrentFailure", "Over-current / 过流故障", "Over-current",
		`<h2>Cause</h2><p>The vehicle drew more current than the charger offered. 车辆电流超过充电桩允许值。</p><h2>Remedy</h2><p>Check the charging profile and the CP signal; update the firmware if the vendor lists a fix.</p>`},
	{"PowerMeterFailure", "Power meter failure / 电表故障", "Power meter failure",
		`<h2>Cause</h2><p>The charger lost its energy meter (Modbus). 电表通信中断。</p><h2>Remedy</h2><p>Check the meter's RS-485 wiring and address; replace the meter if it shows no display.</p>`},
}

// seedDocs makes the platform's categories and documents: the alarm handbook (one document per
// simulated fault code, any model), a configuration guide and a run-info note.
func seedDocs(ctx context.Context, a *app.App, root *access.Principal) error {
	svc := a.Server.Docs
	alarms, err := svc.AddCategory(ctx, root, docs.CategoryInput{Name: "Alarm handbook", Description: "Causes and remedies of charger alarms"})
	if err != nil {
		return fmt.Errorf("docs category: %w", err)
	}
	guides, err := svc.AddCategory(ctx, root, docs.CategoryInput{Name: "Configuration guides", Description: "OCPP configuration and operation notes"})
	if err != nil {
		return fmt.Errorf("docs category: %w", err)
	}
	for _, d := range demoAlarmDocs {
		if _, err := svc.Add(ctx, root, docs.PropsInput{CategoryID: alarms, Title: d.title, Name: d.name, Type: docs.TypeAlarm, Description: "Alarm " + d.code,
			ReadLevel: 5, WriteLevel: 2, Status: docs.StatusEnabled, AlarmCodes: []string{d.code}, Content: d.content}); err != nil {
			return fmt.Errorf("alarm document %s: %w", d.code, err)
		}
	}
	for _, d := range []docs.PropsInput{
		{CategoryID: guides, Title: "Heartbeat and meter intervals", Type: docs.TypeConfig, ReadLevel: 5, WriteLevel: 2, Status: docs.StatusEnabled,
			Content: `<p>Set <code>HeartbeatInterval</code> to 300 s and <code>MeterValueSampleInterval</code> to 60 s for public chargers. 心跳间隔建议 300 秒。</p>`},
		{CategoryID: guides, Title: "Daily run checks", Type: docs.TypeRunInfo, ReadLevel: 3, WriteLevel: 1, Status: docs.StatusEnabled,
			Content: `<p>Every morning: open faults, offline chargers, unfinished sessions. 每日巡检：故障、离线、未结束的充电。</p>`},
	} {
		if _, err := svc.Add(ctx, root, d); err != nil {
			return fmt.Errorf("document %s: %w", d.Title, err)
		}
	}
	return nil
}
