package xlsxout

import (
	"context"

	"chargeops/internal/fleet/read"
)

// SecurityEvents writes the security events e.P may see that match in to an xlsx file, newest
// first, with headers in e.Locale (at most read.MaxSecurityExportRows rows;
// docs/security-profiles.md, "Security events").
func SecurityEvents(ctx context.Context, r *read.Service, e Export, in read.SecurityExportInput) ([]byte, error) {
	if err := CheckFormat(in.Format); err != nil {
		return nil, err
	}
	x, err := New(e.t("secevent.sheet"), e.headers("secevent.col.", "sn", "type", "critical", "techInfo", "occurred", "created", "alarm"))
	if err != nil {
		return nil, err
	}
	defer x.Close()
	yesNo := func(b bool) string {
		if b {
			return e.t("secevent.yes")
		}
		return e.t("secevent.no")
	}
	err = r.EachExportedSecurityEvent(ctx, e.P, in.SecurityEventListInput, func(v read.SecurityEventView) error {
		alarm := ""
		switch {
		case v.AlarmOpen:
			alarm = e.t("secevent.alarm.open")
		case v.AlarmID > 0:
			alarm = e.t("secevent.alarm.ended")
		}
		return x.Row(v.SN, v.Type, yesNo(v.Critical), v.TechInfo, e.at(v.OccurredAt), e.at(v.CreatedAt), alarm)
	})
	if err != nil {
		return nil, err
	}
	return x.Bytes()
}
