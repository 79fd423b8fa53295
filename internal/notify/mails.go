package notify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/db"
	"chargeops/internal/i18n"
	"chargeops/internal/user"
)

// Sending alarm mail: per user, the due rows become one mail (one row: an alarm mail; more: a
// digest), unless the user had MailsPerHour alarm mails in the last hour: then the rows wait
// until the oldest of those is an hour old, and go out together as a digest.

const (
	sqlMailUsers = `SELECT DISTINCT user_id FROM alarm_mail WHERE sent_at = 0 AND due_at <= ? LIMIT 100`
	// the vendor's own code is read from the event (an alarm mail row keeps what the event had)
	sqlMailDue = `SELECT m.id, m.kind, m.level, m.code, m.name, COALESCE(e.vendor_code, ''), m.sn, m.device_name, m.site_name, m.started_at
		FROM alarm_mail m LEFT JOIN device_event e ON e.id = m.event_id WHERE m.user_id = ? AND m.sent_at = 0 AND m.due_at <= ? ORDER BY m.id LIMIT 200`
	sqlMailRate     = `SELECT COUNT(DISTINCT outbox_id), COALESCE(MIN(sent_at), 0) FROM alarm_mail WHERE user_id = ? AND sent_at > ? AND outbox_id <> 0`
	sqlMailPostpone = `UPDATE alarm_mail SET due_at = ? WHERE user_id = ? AND sent_at = 0 AND due_at <= ?`
	sqlMailUser     = `SELECT email, locale FROM app_user WHERE id = ? AND status = ?`
	sqlMailOutbox   = `UPDATE alarm_mail SET outbox_id = ? WHERE id IN `
)

// errRaced: another node claimed some of the rows first; this transaction is undone and the
// rows are left to that node.
var errRaced = errors.New("alarm mail rows claimed by another node")

type mailRow struct {
	ID                     int64
	Kind, Level            int
	Code, Name, VendorCode string
	SN, DeviceName, Site   string
	StartedAt              int64
}

// sendDueMails puts the due alarm mails into the outbox.
func (s *Service) sendDueMails(ctx context.Context) error {
	users, err := db.Column[int64](ctx, s.db, sqlMailUsers, db.NowMS())
	if err != nil {
		return fmt.Errorf("due mail users: %w", err)
	}
	queued := false
	for _, u := range users {
		var sent bool
		if err := s.db.InTx(ctx, func(tx *db.Tx) error {
			var err error
			sent, err = s.mailUser(ctx, tx, u)
			return err
		}); errors.Is(err, errRaced) {
			continue
		} else if err != nil {
			return fmt.Errorf("user %d: %w", u, err)
		}
		queued = queued || sent
	}
	if queued {
		s.mail.Wake()
	}
	return nil
}

func (s *Service) mailUser(ctx context.Context, tx *db.Tx, userID int64) (bool, error) {
	now := db.NowMS()
	hour := time.Hour.Milliseconds()
	var count int
	var oldest int64
	if err := tx.QueryRow(ctx, sqlMailRate, userID, now-hour).Scan(&count, &oldest); err != nil {
		return false, err
	}
	if count >= s.opt.MailsPerHour {
		_, err := tx.Exec(ctx, sqlMailPostpone, oldest+hour+1, userID, now)
		return false, err
	}
	rows, err := tx.Query(ctx, sqlMailDue, userID, now)
	if err != nil {
		return false, err
	}
	var due []mailRow
	for rows.Next() {
		var r mailRow
		if err := rows.Scan(&r.ID, &r.Kind, &r.Level, &r.Code, &r.Name, &r.VendorCode, &r.SN, &r.DeviceName, &r.Site, &r.StartedAt); err != nil {
			rows.Close()
			return false, err
		}
		due = append(due, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(due) == 0 {
		return false, err
	}
	ids := make([]int64, len(due))
	for i, r := range due {
		ids[i] = r.ID
	}
	// the claim: only this transaction marks these rows sent (another node's finds none)
	res, err := tx.Exec(ctx, `UPDATE alarm_mail SET sent_at = ? WHERE sent_at = 0 AND id IN (`+db.Placeholders(len(ids))+`)`, append([]any{now}, db.Args(ids)...)...)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n != int64(len(ids)) {
		return false, errRaced
	}
	var email, locale string
	err = tx.QueryRow(ctx, sqlMailUser, userID, user.Enabled).Scan(&email, &locale)
	if db.NotFound(err) || err == nil && email == "" {
		return false, nil // disabled or no address: the rows stay marked, with no outbox mail
	}
	if err != nil {
		return false, err
	}
	if locale = i18n.Normalize(locale); locale == "" {
		locale = i18n.EnUS
	}
	subject, body := s.compose(locale, due)
	outboxID, err := s.mail.Enqueue(ctx, tx, email, subject, body)
	if err != nil {
		return false, err
	}
	if _, err := tx.Exec(ctx, sqlMailOutbox+`(`+db.Placeholders(len(ids))+`)`, append([]any{outboxID}, db.Args(ids)...)...); err != nil {
		return false, err
	}
	return true, nil
}

// compose writes the alarm mail (one event) or the digest (several), in the receiver's locale,
// naming each event as the console does (i18n.EventTitle): "HK-KB-01-08 at Kowloon Bay: High
// temperature (CA) · HighTemperature".
func (s *Service) compose(locale string, rows []mailRow) (subject, body string) {
	title := func(r mailRow) string {
		device := r.SN
		if r.DeviceName != "" && r.DeviceName != r.SN {
			device += " (" + r.DeviceName + ")"
		}
		return i18n.EventTitle(locale, device, r.Site, r.Kind, r.Level, r.Code, r.Name, r.VendorCode)
	}
	// a line: "2026-11-26 18:58:07 HKT  Alarm  <title>" (the time in the server's zone, named)
	line := func(r mailRow) string {
		return time.UnixMilli(r.StartedAt).In(s.opt.Location).Format("2006-01-02 15:04:05 MST") + "  " +
			i18n.T(locale, fmt.Sprintf("message.kind.%d", r.Kind), nil) + "  " + title(r)
	}
	if len(rows) == 1 {
		r := rows[0]
		return title(r), i18n.T(locale, "mail.alarm.body", map[string]any{"line": line(r)})
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(line(r))
		b.WriteString("\n")
	}
	subject = i18n.T(locale, "mail.digest.subject", map[string]any{"count": len(rows)})
	return subject, i18n.T(locale, "mail.digest.body", map[string]any{"count": len(rows), "lines": b.String()})
}
