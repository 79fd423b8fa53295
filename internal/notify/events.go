package notify

import (
	"context"
	"fmt"

	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/user"
)

// Handling one due device event: the users whose scope covers its site and whose settings
// accept it get a console message (or a repeat on the open one), the site's notification
// receivers with email-alarm receipt an alarm mail row (docs/messages.md).

const (
	sqlDueEvents = `SELECT event_id FROM notify_event WHERE done = 0 AND due_at <= ? ORDER BY due_at, event_id LIMIT 100`
	sqlClaim     = `UPDATE notify_event SET done = 1 WHERE event_id = ? AND done = 0`
	sqlEvent     = `SELECT e.device_id, e.customer_id, e.site_id, e.kind, e.level, e.code, e.name, e.status, e.started_at, e.ended_at,
		COALESCE(d.sn, ''), COALESCE(d.name, ''), COALESCE(s.name, '')
		FROM device_event e LEFT JOIN device d ON d.id = e.device_id LEFT JOIN site s ON s.id = e.site_id WHERE e.id = ?`
	// the users whose data scope covers a site (the SQL form of auth's scope derivation:
	// root sees all; customer access 0 all, 1 own customer, 2 assigned; site access 0 all, 1 assigned),
	// with their settings (defaults when none) and whether they receive the site's notifications
	sqlRecipients = `SELECT u.id, u.email, u.locale, COALESCE(r.email_alarm, 0),
		COALESCE(ms.kinds, ?), COALESCE(ms.levels, ?), COALESCE(ms.all_sites, 1), COALESCE(ms.console, 1), COALESCE(ms.mail, 1),
		COALESCE(ms.frequency, ?), COALESCE(ms.delay_min, ?),
		CASE WHEN EXISTS (SELECT 1 FROM message_setting_site mss WHERE mss.user_id = u.id AND mss.site_id = ?) THEN 1 ELSE 0 END,
		CASE WHEN EXISTS (SELECT 1 FROM site_receiver sr WHERE sr.site_id = ? AND sr.user_id = u.id) THEN 1 ELSE 0 END
		FROM app_user u LEFT JOIN role r ON r.id = u.role_id LEFT JOIN message_setting ms ON ms.user_id = u.id
		WHERE u.status = ? AND (u.root = 1 OR (r.id IS NOT NULL
		  AND (r.customer_access = 0 OR (r.customer_access = 1 AND u.customer_id = ?)
		       OR (r.customer_access = 2 AND EXISTS (SELECT 1 FROM user_customer uc WHERE uc.user_id = u.id AND uc.customer_id = ?)))
		  AND (r.site_access = 0 OR EXISTS (SELECT 1 FROM user_site us WHERE us.user_id = u.id AND us.site_id = ?))))
		ORDER BY u.id`
	// the user's row of the same device, kind and code to fold a repeat into: one still unread
	// (however old: a flapping charger adds to one row, never to the unread count) or one
	// whose last repeat is within the repeat window
	sqlOpenGroup = `SELECT id FROM message WHERE user_id = ? AND device_id = ? AND kind = ? AND code = ? AND (read_at = 0 OR last_at >= ?)
		ORDER BY id DESC LIMIT 1`
	sqlRepeat     = `UPDATE message SET repeats = repeats + 1, last_at = ?, event_id = ?, level = ?, recovered_at = ?, read_at = 0 WHERE id = ?`
	sqlMessageAdd = `INSERT INTO message (user_id, event_id, device_id, site_id, customer_id, kind, level, code, name, started_at, created_at, last_at, recovered_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlMailGroup  = `SELECT COUNT(*) FROM alarm_mail WHERE user_id = ? AND device_id = ? AND kind = ? AND code = ? AND started_at >= ?`
	sqlNextDigest = `SELECT MIN(due_at) FROM alarm_mail WHERE user_id = ? AND sent_at = 0`
	sqlMailAdd    = `INSERT INTO alarm_mail (user_id, event_id, device_id, kind, level, code, name, sn, device_name, site_name, started_at, created_at, due_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

// event is a device event as the notifier reads it.
type event struct {
	ID, DeviceID, CustomerID, SiteID int64
	Kind, Level, Status              int
	Code, Name, SN, DeviceName, Site string
	StartedAt, EndedAt               int64
}

// recipient is a user in scope of an event's site with their settings.
type recipient struct {
	UserID        int64
	Email, Locale string
	EmailAlarm    bool
	Setting       Setting
	SiteListed    bool // the site is in the user's own site list
	Receiver      bool // a notification receiver of the site
}

func (r recipient) accepts(e event) bool {
	st := r.Setting
	return hasBit(st.kindMask(), e.Kind) && hasBit(st.levelMask(), e.Level) && (st.AllSites || r.SiteListed)
}

func hasBit(mask, n int) bool { return n >= 0 && n < 31 && mask&(1<<n) != 0 }

// handleDueEvents handles up to a hundred due events and returns how many it looked at.
func (s *Service) handleDueEvents(ctx context.Context) (int, error) {
	ids, err := db.Column[int64](ctx, s.db, sqlDueEvents, db.NowMS())
	if err != nil {
		return 0, fmt.Errorf("notify: due events: %w", err)
	}
	for _, id := range ids {
		var users []int64
		var mailed bool
		err := s.db.InTx(ctx, func(tx *db.Tx) error {
			var err error
			users, mailed, err = s.handleEvent(ctx, tx, id)
			return err
		})
		if err != nil {
			return 0, fmt.Errorf("notify: event %d: %w", id, err)
		}
		s.signal(users...)
		if mailed {
			s.poke()
		}
	}
	return len(ids), nil
}

// handleEvent claims the event and writes its messages and mail rows; it returns the users
// whose messages changed and whether mail was queued.
func (s *Service) handleEvent(ctx context.Context, tx *db.Tx, id int64) (users []int64, mailed bool, err error) {
	res, err := tx.Exec(ctx, sqlClaim, id)
	if err != nil {
		return nil, false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, false, nil // another node handled it
	}
	e := event{ID: id}
	err = tx.QueryRow(ctx, sqlEvent, id).Scan(&e.DeviceID, &e.CustomerID, &e.SiteID, &e.Kind, &e.Level, &e.Code, &e.Name, &e.Status,
		&e.StartedAt, &e.EndedAt, &e.SN, &e.DeviceName, &e.Site)
	if db.NotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if e.Kind == devstate.KindOffline && e.Status == devstate.EventEnded {
		return nil, false, nil // back before the debounce ended: nothing to say
	}
	recipients, err := s.recipients(ctx, tx, e)
	if err != nil {
		return nil, false, err
	}
	recovered := int64(0)
	if e.Status == devstate.EventEnded {
		recovered = e.EndedAt
	}
	now := db.NowMS()
	since := e.StartedAt - s.opt.RepeatWindow.Milliseconds()
	for _, r := range recipients {
		if !r.accepts(e) {
			continue
		}
		if r.Setting.Console {
			if err := s.addMessage(ctx, tx, r.UserID, e, since, recovered, now); err != nil {
				return nil, false, err
			}
			users = append(users, r.UserID)
		}
		if r.Receiver && r.EmailAlarm && r.Setting.Mail && r.Email != "" {
			added, err := s.addMail(ctx, tx, r, e, since, now)
			if err != nil {
				return nil, false, err
			}
			mailed = mailed || added
		}
	}
	return users, mailed, nil
}

func (s *Service) recipients(ctx context.Context, tx *db.Tx, e event) ([]recipient, error) {
	def := DefaultSetting()
	rows, err := tx.Query(ctx, sqlRecipients, def.kindMask(), def.levelMask(), frequencyCode(def.Frequency), def.DelayMinutes,
		e.SiteID, e.SiteID, user.Enabled, e.CustomerID, e.CustomerID, e.SiteID)
	if err != nil {
		return nil, fmt.Errorf("recipients: %w", err)
	}
	defer rows.Close()
	var out []recipient
	for rows.Next() {
		var r recipient
		var emailAlarm, kinds, levels, allSites, console, mailOn, freq, listed, receiver int
		if err := rows.Scan(&r.UserID, &r.Email, &r.Locale, &emailAlarm, &kinds, &levels, &allSites, &console, &mailOn, &freq,
			&r.Setting.DelayMinutes, &listed, &receiver); err != nil {
			return nil, err
		}
		r.EmailAlarm, r.SiteListed, r.Receiver = emailAlarm == 1, listed == 1, receiver == 1
		r.Setting.Kinds, r.Setting.Levels = fromMask(kinds, len(kindNames)), fromMask(levels, len(levelNames))
		r.Setting.AllSites, r.Setting.Console, r.Setting.Mail = allSites == 1, console == 1, mailOn == 1
		r.Setting.Frequency = frequencyName(freq)
		out = append(out, r)
	}
	return out, rows.Err()
}

// addMessage adds a console message, or counts a repeat on the user's message of the same
// device, kind and code that is unread or within the repeat window (which then reads as unread
// and unrecovered, its last time the repeat's).
func (s *Service) addMessage(ctx context.Context, tx *db.Tx, userID int64, e event, since, recovered, now int64) error {
	var open int64
	err := tx.QueryRow(ctx, sqlOpenGroup, userID, e.DeviceID, e.Kind, e.Code, since).Scan(&open)
	switch {
	case err == nil:
		_, err = tx.Exec(ctx, sqlRepeat, e.StartedAt, e.ID, e.Level, recovered, open)
	case db.NotFound(err):
		_, err = tx.Exec(ctx, sqlMessageAdd, userID, e.ID, e.DeviceID, e.SiteID, e.CustomerID, e.Kind, e.Level, e.Code, e.Name,
			e.StartedAt, now, e.StartedAt, recovered)
	}
	if err != nil {
		return fmt.Errorf("message: %w", err)
	}
	return nil
}

// addMail queues an alarm mail row for the receiver unless the same device, kind and code was
// mailed within the repeat window. Immediate receivers' rows are due now; delayed ones join
// the pending digest, or start one due after the delay.
func (s *Service) addMail(ctx context.Context, tx *db.Tx, r recipient, e event, since, now int64) (bool, error) {
	var n int
	if err := tx.QueryRow(ctx, sqlMailGroup, r.UserID, e.DeviceID, e.Kind, e.Code, since).Scan(&n); err != nil {
		return false, fmt.Errorf("mail group: %w", err)
	}
	if n > 0 {
		return false, nil
	}
	due := now
	if r.Setting.Frequency == FrequencyDelayed {
		var next *int64
		if err := tx.QueryRow(ctx, sqlNextDigest, r.UserID).Scan(&next); err != nil {
			return false, fmt.Errorf("next digest: %w", err)
		}
		due = now + int64(r.Setting.DelayMinutes)*60_000
		if next != nil {
			due = *next
		}
	}
	if _, err := tx.Exec(ctx, sqlMailAdd, r.UserID, e.ID, e.DeviceID, e.Kind, e.Level, e.Code, e.Name, e.SN, e.DeviceName, e.Site,
		e.StartedAt, now, due); err != nil {
		return false, fmt.Errorf("alarm mail: %w", err)
	}
	return true, nil
}
