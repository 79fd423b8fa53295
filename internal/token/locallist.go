package token

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
)

// The local authorization list (docs/tokens.md, "Local list"). Every token change takes the
// next value of one counter (token_seq) as its version; a customer's list version is the
// highest version of its tokens and tombstones. A full list is every token with its answer; a
// differential one the tokens and tombstones whose version is above the version the charger
// holds. Tokens recorded from unknown idTags (version 0) are left out until they are changed. The version a charger holds comes from its GetLocalListVersion answer or the list it
// accepted (token_device_list).

// Configuration keys of OCPP 1.6's Local Auth List Management profile.
const (
	keyListEnabled = "LocalAuthListEnabled"
	keySendMax     = "SendLocalListMaxLength"
	keyListMax     = "LocalAuthListMaxLength"
)

// Refusals (message keys) of a list that must not be sent.
const (
	refuseTooLong  = "err.local_list_too_long"
	refuseDisabled = "err.local_list_disabled"
	refuseCurrent  = "err.local_list_current"
)

// held is what token_device_list knows of a charger.
type held struct {
	version, at, sentVersion, sentAt, checkedAt int64
	pending                                     bool
}

func (s *Service) held(ctx context.Context, q db.Querier, deviceID int64) (held, error) {
	var h held
	var pending int
	err := q.QueryRow(ctx, `SELECT held_version, held_at, sent_version, sent_at, checked_at, pending FROM token_device_list WHERE device_id = ?`, deviceID).
		Scan(&h.version, &h.at, &h.sentVersion, &h.sentAt, &h.checkedAt, &pending)
	if db.NotFound(err) {
		return h, nil
	}
	h.pending = pending == 1
	return h, err
}

// limits are the charger's configuration of its local list, as its GetConfiguration answered
// (0: not known).
type limits struct {
	disabled     bool
	sendMax, max int
}

func (s *Service) limits(ctx context.Context, deviceID int64) (limits, error) {
	var l limits
	rows, err := s.db.Query(ctx, `SELECT key, value FROM device_config WHERE device_id = ? AND key IN (?, ?, ?)`, deviceID, keyListEnabled, keySendMax, keyListMax)
	if err != nil {
		return l, err
	}
	defer rows.Close()
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return l, err
		}
		v = strings.TrimSpace(v)
		switch k {
		case keyListEnabled:
			l.disabled = strings.EqualFold(v, "false")
		case keySendMax:
			l.sendMax, _ = strconv.Atoi(v)
		case keyListMax:
			l.max, _ = strconv.Atoi(v)
		}
	}
	return l, rows.Err()
}

// entryCols read a token with its parent's status and expiry.
const entryCols = `t.id_tag, t.parent_id_tag, t.status, t.expires_at, COALESCE(pa.status, 0), COALESCE(pa.expires_at, 0)`

const entryFrom = `token t LEFT JOIN token pa ON pa.customer_id = t.customer_id AND pa.tag_key = t.parent_key AND t.parent_key <> ''`

func scanEntry(now int64) func(db.Scanner) (fleet.LocalListEntry, error) {
	return func(r db.Scanner) (fleet.LocalListEntry, error) {
		var e fleet.LocalListEntry
		var parent string
		var status, parentStatus int
		var expires, parentExpires int64
		if err := r.Scan(&e.IDTag, &parent, &status, &expires, &parentStatus, &parentExpires); err != nil {
			return e, err
		}
		info := answer(parent, status, parentStatus, expires, parentExpires, now)
		e.Info = &info
		return e, nil
	}
}

// maxListEntries bounds a list read at once (far above any charger's SendLocalListMaxLength).
const maxListEntries = 100000

// Build returns the list to send dev (fleet.LocalLists).
func (s *Service) Build(ctx context.Context, dev *fleet.Device, full bool) (fleet.LocalList, string, error) {
	list, refusal, _, err := s.build(ctx, dev, full)
	return list, refusal, err
}

func (s *Service) build(ctx context.Context, dev *fleet.Device, full bool) (fleet.LocalList, string, limits, error) {
	var list fleet.LocalList
	lim, err := s.limits(ctx, dev.ID)
	if err != nil {
		return list, "", lim, wrap("local list limits", err)
	}
	if lim.disabled {
		return list, refuseDisabled, lim, nil
	}
	h, err := s.held(ctx, s.db, dev.ID)
	if err != nil {
		return list, "", lim, wrap("local list held", err)
	}
	if list.Version, err = listVersion(ctx, s.db, dev.CustomerID); err != nil {
		return list, "", lim, wrap("local list version", err)
	}
	// a differential update needs the version the charger holds, and one we made
	if h.at == 0 || h.version < 0 || h.version > list.Version {
		full = true
	}
	if !full && h.version == list.Version {
		return list, refuseCurrent, lim, nil
	}
	list.Full = full
	now := db.NowMS()
	// a token recorded from an unknown idTag (version 0) joins the lists once it is changed
	since := int64(0)
	if !full {
		since = h.version
	}
	q := (&db.Query{From: entryFrom}).And("t.customer_id = ?", dev.CustomerID).And("t.version > ?", since)
	if list.Entries, err = db.All(ctx, s.db, q, entryCols, "t.tag_key", maxListEntries, 0, scanEntry(now)); err != nil {
		return list, "", lim, wrap("local list", err)
	}
	if !full {
		gone, err := db.Column[string](ctx, s.db, `SELECT id_tag FROM token_tombstone WHERE customer_id = ? AND version > ? ORDER BY tag_key`, dev.CustomerID, h.version)
		if err != nil {
			return list, "", lim, wrap("local list removals", err)
		}
		for _, tag := range gone {
			list.Entries = append(list.Entries, fleet.LocalListEntry{IDTag: tag})
		}
	}
	n := len(list.Entries)
	if (lim.sendMax > 0 && n > lim.sendMax) || (full && lim.max > 0 && n > lim.max) {
		return list, refuseTooLong, lim, nil
	}
	return list, "", lim, nil
}

// Held records the version dev holds (fleet.LocalLists).
func (s *Service) Held(ctx context.Context, dev *fleet.Device, version int64, sent bool) error {
	now := db.NowMS()
	var sentVersion, sentAt any = 0, 0
	q := `INSERT INTO token_device_list (device_id, held_version, held_at) VALUES (?, ?, ?)
		ON CONFLICT (device_id) DO UPDATE SET held_version = excluded.held_version, held_at = excluded.held_at`
	args := []any{dev.ID, version, now}
	if sent {
		sentVersion, sentAt = version, now
		q = `INSERT INTO token_device_list (device_id, held_version, held_at, sent_version, sent_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (device_id) DO UPDATE SET held_version = excluded.held_version, held_at = excluded.held_at,
			sent_version = excluded.sent_version, sent_at = excluded.sent_at`
		args = append(args, sentVersion, sentAt)
	}
	_, err := s.db.Exec(ctx, q, args...)
	return wrap("held version", err)
}

// ListState is what the console shows of a charger's local list.
type ListState struct {
	DeviceID       int64 `json:"deviceId"`
	CurrentVersion int64 `json:"currentVersion"` // the customer's list version
	HeldVersion    int64 `json:"heldVersion"`    // what the charger said it holds (-1: no local list)
	HeldKnown      bool  `json:"heldKnown"`
	HeldAt         int64 `json:"heldAt"`
	SentVersion    int64 `json:"sentVersion"`
	SentAt         int64 `json:"sentAt"`
	Tokens         int   `json:"tokens"`    // entries of a full list
	MaxLength      int   `json:"maxLength"` // SendLocalListMaxLength (0: not known)
	Enabled        *bool `json:"enabled"`   // LocalAuthListEnabled (null: not known)
	InSync         bool  `json:"inSync"`    // the charger holds the current version
}

// device returns a device in p's scope.
func (s *Service) device(ctx context.Context, p *access.Principal, id int64) (*fleet.Device, error) {
	cond, args := p.Scope.SiteCond("customer_id", "site_id")
	d := &fleet.Device{}
	err := s.db.QueryRow(ctx, `SELECT id, sn, customer_id, site_id FROM device WHERE id = ? AND `+cond, append([]any{id}, args...)...).
		Scan(&d.ID, &d.SN, &d.CustomerID, &d.SiteID)
	if db.NotFound(err) {
		return nil, apperr.ErrNotFound
	}
	return d, wrap("device", err)
}

// State returns the local-list state of a device in p's scope.
func (s *Service) State(ctx context.Context, p *access.Principal, deviceID int64) (ListState, error) {
	st := ListState{DeviceID: deviceID}
	dev, err := s.device(ctx, p, deviceID)
	if err != nil {
		return st, err
	}
	h, err := s.held(ctx, s.db, dev.ID)
	if err != nil {
		return st, wrap("local list state", err)
	}
	st.HeldVersion, st.HeldKnown, st.HeldAt, st.SentVersion, st.SentAt = h.version, h.at > 0, h.at, h.sentVersion, h.sentAt
	if st.CurrentVersion, err = listVersion(ctx, s.db, dev.CustomerID); err != nil {
		return st, wrap("local list state", err)
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM token WHERE customer_id = ? AND version > ?`, dev.CustomerID, 0).Scan(&st.Tokens); err != nil {
		return st, wrap("local list state", err)
	}
	lim, err := s.limits(ctx, dev.ID)
	if err != nil {
		return st, wrap("local list state", err)
	}
	st.MaxLength = lim.sendMax
	var enabled string
	if err := s.db.QueryRow(ctx, `SELECT value FROM device_config WHERE device_id = ? AND key = ?`, dev.ID, keyListEnabled).Scan(&enabled); err == nil {
		e := !strings.EqualFold(strings.TrimSpace(enabled), "false")
		st.Enabled = &e
	}
	st.InSync = st.HeldKnown && st.HeldVersion == st.CurrentVersion
	return st, nil
}

// SendInput asks for a local list on a device: updateType Full or Differential.
type SendInput struct {
	DeviceID   int64  `json:"deviceId"`
	UpdateType string `json:"updateType"`
}

// Update types of SendLocalList.
const (
	UpdateFull         = "Full"
	UpdateDifferential = "Differential"
)

// Send sends the local list to a device in p's scope through the command path; a list the
// charger would not take is refused here with the reason and nothing is sent.
func (s *Service) Send(ctx context.Context, p *access.Principal, in SendInput) (fleet.SendResult, error) {
	if in.UpdateType == "" {
		in.UpdateType = UpdateFull
	}
	if in.UpdateType != UpdateFull && in.UpdateType != UpdateDifferential {
		return fleet.SendResult{}, apperr.InvalidField("updateType", "err.invalid")
	}
	dev, err := s.device(ctx, p, in.DeviceID)
	if err != nil {
		return fleet.SendResult{}, err
	}
	list, refusal, lim, err := s.build(ctx, dev, in.UpdateType == UpdateFull)
	if err != nil {
		return fleet.SendResult{}, err
	}
	switch refusal {
	case "":
	case refuseTooLong:
		max := lim.sendMax
		if max == 0 || (list.Full && lim.max > 0 && lim.max < max) {
			max = lim.max
		}
		return fleet.SendResult{}, apperr.New(apperr.Invalid, "err.local_list_too_long_n").With(map[string]any{"count": len(list.Entries), "max": max})
	default:
		return fleet.SendResult{}, apperr.New(apperr.Invalid, refusal)
	}
	if s.fleet == nil {
		return fleet.SendResult{}, errors.New("token: send: no fleet")
	}
	return s.fleet.Send(ctx, p, fleet.SendInput{DeviceIDs: []int64{dev.ID}, ControlType: fleet.CtlSendLocalList, Params: fleet.Params{UpdateType: in.UpdateType}})
}

// AttachFleet gives the service the command path (the local list's sends and the sweep).
func (s *Service) AttachFleet(f *fleet.Service) { s.fleet = f }

// system is the caller of the sweep's commands.
var system = &access.Principal{Root: true, UserName: "system", Scope: access.FullScope()}

// sqlSweep: connected, enabled chargers of customers that have a list (a version above 0) that
// (re)connected since they were last asked, or whose known version differs from their
// customer's and was not tried yet; with the customer's version (cv).
const sqlSweep = `SELECT id, sn, customer_id, site_id, connected_at, held, held_at, sent, checked, CASE WHEN tv >= bv THEN tv ELSE bv END AS cv FROM (
	SELECT d.id, d.sn, d.customer_id, d.site_id, s.connected_at, COALESCE(l.held_version, 0) AS held, COALESCE(l.held_at, 0) AS held_at,
		COALESCE(l.sent_version, 0) AS sent, COALESCE(l.checked_at, 0) AS checked,
		(SELECT COALESCE(MAX(t.version), 0) FROM token t WHERE t.customer_id = d.customer_id) AS tv,
		(SELECT COALESCE(MAX(b.version), 0) FROM token_tombstone b WHERE b.customer_id = d.customer_id) AS bv
	FROM device d JOIN device_state s ON s.device_id = d.id LEFT JOIN token_device_list l ON l.device_id = d.id
	WHERE s.online = ? AND d.enabled = ? AND s.connected_at <= ?) x
	WHERE (tv > 0 OR bv > 0) AND (checked < connected_at OR (held_at > 0 AND held >= 0
		AND held <> (CASE WHEN tv >= bv THEN tv ELSE bv END) AND sent <> (CASE WHEN tv >= bv THEN tv ELSE bv END)))
	ORDER BY id LIMIT 1000`

// Settle is how long after a connection the sweep waits before asking (the charger boots first).
var Settle = 5 * time.Second

// Sweep asks the chargers that (re)connected since they were last asked for the version they
// hold (GetLocalListVersion), and those whose known version differs from their customer's and
// were not sent that version yet; the answer sends the full list when the versions differ
// (OnCommandResult). Both go through the command path, so they are in the command history.
func (s *Service) Sweep(ctx context.Context) error {
	if s.fleet == nil {
		return nil
	}
	now := db.NowMS()
	rows, err := s.db.Query(ctx, sqlSweep, 1, 1, now-Settle.Milliseconds())
	if err != nil {
		return wrap("sweep", err)
	}
	type candidate struct {
		dev                                       fleet.Device
		connectedAt, held, heldAt, sent, chkd, cv int64
	}
	var cands []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.dev.ID, &c.dev.SN, &c.dev.CustomerID, &c.dev.SiteID, &c.connectedAt, &c.held, &c.heldAt, &c.sent, &c.chkd, &c.cv); err != nil {
			rows.Close()
			return wrap("sweep", err)
		}
		cands = append(cands, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return wrap("sweep", err)
	}
	for _, c := range cands {
		if c.chkd < c.connectedAt { // (re)connected: ask what it holds
			if _, err := s.db.Exec(ctx, `INSERT INTO token_device_list (device_id, checked_at, pending) VALUES (?, ?, 1)
				ON CONFLICT (device_id) DO UPDATE SET checked_at = excluded.checked_at, pending = 1`, c.dev.ID, now); err != nil {
				return wrap("sweep", err)
			}
		} else { // the list changed since: ask, then send (once per version)
			if _, err := s.db.Exec(ctx, `UPDATE token_device_list SET sent_version = ?, pending = 1 WHERE device_id = ?`, c.cv, c.dev.ID); err != nil {
				return wrap("sweep", err)
			}
		}
		s.command(ctx, c.dev.ID, fleet.CtlGetLocalListVersion, fleet.Params{})
	}
	return nil
}

// command sends a control type as the system; a busy or offline charger is asked again later.
func (s *Service) command(ctx context.Context, deviceID int64, ct int, params fleet.Params) {
	if _, err := s.fleet.Send(ctx, system, fleet.SendInput{DeviceIDs: []int64{deviceID}, ControlType: ct, Params: params}); err != nil {
		slog.Info("local list command not sent", "device", deviceID, "controlType", ct, "err", err)
		if _, uerr := s.db.Exec(ctx, `UPDATE token_device_list SET pending = 0, checked_at = 0 WHERE device_id = ?`, deviceID); uerr != nil {
			slog.Warn("local list state", "device", deviceID, "err", uerr)
		}
	}
}

// OnCommandResult continues a sweep: when the GetLocalListVersion it asked for is answered
// and the charger holds another version than its customer's, the full list is sent. It does
// not block (fleet.OnCommandResults runs listeners on the ingest writer).
func (s *Service) OnCommandResult(r fleet.CommandResult) {
	if r.ControlType != fleet.CtlGetLocalListVersion || s.fleet == nil {
		return
	}
	go s.afterVersion(r)
}

func (s *Service) afterVersion(r fleet.CommandResult) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.db.Exec(ctx, `UPDATE token_device_list SET pending = 0 WHERE device_id = ? AND pending = 1`, r.DeviceID)
	if err != nil {
		slog.Warn("local list state", "device", r.DeviceID, "err", err)
		return
	}
	if n, _ := res.RowsAffected(); n != 1 || r.Result != fleet.ResultSuccess {
		return // not the sweep's question, or not answered
	}
	var customerID int64
	if err := s.db.QueryRow(ctx, `SELECT customer_id FROM device WHERE id = ?`, r.DeviceID).Scan(&customerID); err != nil {
		slog.Warn("local list device", "device", r.DeviceID, "err", err)
		return
	}
	h, err := s.held(ctx, s.db, r.DeviceID)
	if err != nil {
		slog.Warn("local list state", "device", r.DeviceID, "err", err)
		return
	}
	v, err := listVersion(ctx, s.db, customerID)
	if err != nil || h.version == v || h.version < 0 {
		return // in sync, or the charger has no local list
	}
	if _, err := s.db.Exec(ctx, `UPDATE token_device_list SET sent_version = ? WHERE device_id = ?`, v, r.DeviceID); err != nil {
		slog.Warn("local list state", "device", r.DeviceID, "err", err)
		return
	}
	s.command(ctx, r.DeviceID, fleet.CtlSendLocalList, fleet.Params{UpdateType: UpdateFull})
}
