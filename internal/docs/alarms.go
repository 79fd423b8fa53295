package docs

import (
	"context"
	"fmt"

	"chargeops/internal/access"
	"chargeops/internal/db"
)

// Alarm documents (docs/docs-wiki.md, "Alarm documents"): an enabled type-100 document names
// alarm codes (an OCPP errorCode or a vendor code) and optionally a device model. A device's
// alarm is linked to the document the caller may read whose code is the alarm's vendor code,
// else its error code; a document of the device's model wins over one of any model.

// AlarmRef is one alarm to look up.
type AlarmRef struct {
	DeviceID   int64
	Code       string
	VendorCode string
}

// DocRef names the document of an alarm (ID 0: none).
type DocRef struct {
	ID   int64
	Name string
}

// MaxAlarmLookup bounds one lookup (a page of alarms).
const MaxAlarmLookup = 100

// AlarmDocs answers, for each alarm, its document: two queries for the whole page (the
// devices' models, the documents of the codes).
func (s *Service) AlarmDocs(ctx context.Context, p *access.Principal, alarms []AlarmRef) ([]DocRef, error) {
	out := make([]DocRef, len(alarms))
	if len(alarms) == 0 || len(alarms) > MaxAlarmLookup || !p.HasAny("auth_docs_detail") {
		return out, nil
	}
	devices, codes := []int64{}, []string{}
	seenDev, seenCode := map[int64]bool{}, map[string]bool{}
	for _, a := range alarms {
		if !seenDev[a.DeviceID] {
			seenDev[a.DeviceID] = true
			devices = append(devices, a.DeviceID)
		}
		for _, c := range []string{a.VendorCode, a.Code} {
			if c != "" && !seenCode[c] {
				seenCode[c] = true
				codes = append(codes, c)
			}
		}
	}
	if len(codes) == 0 {
		return out, nil
	}
	models := map[int64]int64{}
	rows, err := s.db.Query(ctx, `SELECT id, model_id FROM device WHERE id IN (`+db.Placeholders(len(devices))+`)`, db.Args(devices)...)
	if err != nil {
		return out, fmt.Errorf("docs: alarm models: %w", err)
	}
	for rows.Next() {
		var d, m int64
		if err := rows.Scan(&d, &m); err != nil {
			rows.Close()
			return out, err
		}
		models[d] = m
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}
	type key struct {
		code  string
		model int64
	}
	found := map[key]DocRef{}
	cond, args := s.readable(p, "d")
	q := `SELECT c.code, c.model_id, d.id, d.name, d.title FROM doc_alarm_code c JOIN doc d ON d.id = c.doc_id
		WHERE c.code IN (` + db.Placeholders(len(codes)) + `) AND d.type = ? AND d.status = ? AND ` + cond + ` ORDER BY d.id`
	rows, err = s.db.Query(ctx, q, append(append(db.Args(codes), TypeAlarm, StatusEnabled), args...)...)
	if err != nil {
		return out, fmt.Errorf("docs: alarm docs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k key
		var r DocRef
		var title string
		if err := rows.Scan(&k.code, &k.model, &r.ID, &r.Name, &title); err != nil {
			return out, err
		}
		if r.Name == "" {
			r.Name = title
		}
		if _, dup := found[k]; !dup {
			found[k] = r
		}
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	for i, a := range alarms {
		for _, c := range []string{a.VendorCode, a.Code} {
			if c == "" {
				continue
			}
			if r, ok := found[key{c, models[a.DeviceID]}]; ok && models[a.DeviceID] != 0 {
				out[i] = r
				break
			}
			if r, ok := found[key{c, 0}]; ok {
				out[i] = r
				break
			}
		}
	}
	return out, nil
}
