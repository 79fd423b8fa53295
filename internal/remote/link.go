package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/kit"
)

// Errors of remote access (spec messages, localised in internal/i18n/messages_remote.go).
var (
	ErrNotSupportedLink = apperr.New(apperr.NotSupported, "err.remote_not_supported") // the model does not support the kind
	ErrVPNNotSupported  = apperr.New(apperr.NotSupported, "err.vpn_not_supported")    // the charger does not know VpnStart
	ErrVPNStatus        = apperr.New(apperr.RemoteFailed, "err.vpn_status")           // {status}
	ErrConnectionFailed = apperr.New(apperr.RemoteFailed, "err.remote_connection_failed")
	ErrTimeout          = apperr.New(apperr.CommandTimeout, "err.remote_timeout")
	ErrDestroyFailed    = apperr.New(apperr.DestroyFailed, "err.remote_destroy_failed")
	ErrNoLink           = apperr.New(apperr.NotFound, "err.remote_no_link")
	ErrLinkBusy         = apperr.New(apperr.Conflict, "err.remote_link_busy")
)

// LinkView is a link as the API shows it (the contract shared with the console).
type LinkView struct {
	ID           int64  `json:"id"`
	DeviceID     int64  `json:"deviceId"`
	SN           string `json:"sn"`
	Kind         string `json:"kind"`
	Account      string `json:"account"`
	Status       int    `json:"status"`
	Minutes      int    `json:"minutes"`
	OpenedBy     int64  `json:"openedBy"`
	OpenedByName string `json:"openedByName"`
	OpenedAt     int64  `json:"openedAt"`
	ExpiresAt    int64  `json:"expiresAt"`
	RemainingSec int64  `json:"remainingSec"`
	ClosedAt     int64  `json:"closedAt"`
	CloseReason  string `json:"closeReason"`
	Node         string `json:"node"`
	WebSupported bool   `json:"webSupported"`
	SSHSupported bool   `json:"sshSupported"`
	// CommandID is the VPN start's command record (control type 7).
	CommandID int64 `json:"commandId"`
	nodeURL   string
}

// StatusView answers link/status: the device's newest link (null when it never had one) and
// what the caller may do with the device.
type StatusView struct {
	Link         *LinkView `json:"link"`
	WebSupported bool      `json:"webSupported"`
	SSHSupported bool      `json:"sshSupported"`
	CanWeb       bool      `json:"canWeb"`
	CanSSH       bool      `json:"canSsh"`
}

// DeviceInput names a device.
type DeviceInput struct {
	DeviceID int64 `json:"deviceId"`
}

// OpenInput opens a link: its kind and validity (5-240 minutes, default 30).
type OpenInput struct {
	DeviceID int64  `json:"deviceId"`
	Kind     string `json:"kind"`
	Minutes  int    `json:"minutes,omitempty"`
}

func (in *OpenInput) validate() error {
	if in.DeviceID <= 0 {
		return apperr.InvalidField("deviceId", "err.required")
	}
	if in.Kind != KindWeb && in.Kind != KindSSH {
		return apperr.InvalidField("kind", "err.invalid")
	}
	if in.Minutes == 0 {
		in.Minutes = DefaultMinutes
	}
	if in.Minutes < MinMinutes || in.Minutes > MaxMinutes {
		return apperr.InvalidField("minutes", "err.remote_minutes").With(map[string]any{"field": "minutes", "min": MinMinutes, "max": MaxMinutes})
	}
	return nil
}

// allowed: p's WEB/SSH access and level allow kind on the device, and the model supports it
// (the check a VPN start gets; docs/decisions.md, "Levels").
func (s *Service) allowed(ctx context.Context, p *access.Principal, t target, kind string) error {
	// The caller's right first: a user who may not open the kind learns nothing of the model.
	if err := s.fleet.CheckLink(ctx, p, t.modelID, kind); err != nil {
		return err
	}
	if !t.supports(kind) {
		return ErrNotSupportedLink
	}
	return nil
}

// Status is the device's newest link and what p may open on it.
func (s *Service) Status(ctx context.Context, p *access.Principal, deviceID int64) (StatusView, error) {
	t, err := s.device(ctx, p, deviceID)
	if err != nil {
		return StatusView{}, err
	}
	v := StatusView{WebSupported: t.web, SSHSupported: t.ssh}
	v.CanWeb = s.allowed(ctx, p, t, KindWeb) == nil
	v.CanSSH = s.allowed(ctx, p, t, KindSSH) == nil
	links, err := s.linksOrdered(ctx, `l.device_id = ?`, `l.id DESC`, 1, t.id)
	if err != nil {
		return v, err
	}
	if len(links) > 0 {
		v.Link = &links[0]
	}
	return v, nil
}

// Open opens a link of in.Kind on a device: a VPN start (control type 7, a command record like
// any remote operation) hands the charger a one-time token and the tunnel URL; the answer comes
// once the charger's tunnel arrived (any node), or with the reason it did not.
func (s *Service) Open(ctx context.Context, p *access.Principal, in OpenInput) (LinkView, error) {
	if err := in.validate(); err != nil {
		return LinkView{}, err
	}
	t, err := s.device(ctx, p, in.DeviceID)
	if err != nil {
		return LinkView{}, err
	}
	if err := s.allowed(ctx, p, t, in.Kind); err != nil {
		return LinkView{}, err
	}
	if active, err := s.active(ctx, t.id); err != nil {
		return LinkView{}, err
	} else if active != nil {
		if active.Status == StatusOpen && active.Kind == in.Kind {
			return s.view(*active, t), nil
		}
		return LinkView{}, ErrLinkBusy
	}
	return s.open(ctx, p, t, in.Kind, in.Minutes)
}

func (s *Service) open(ctx context.Context, p *access.Principal, t target, kind string, minutes int) (LinkView, error) {
	if !t.enabled {
		return LinkView{}, apperr.ErrDeviceDisabled
	}
	if black, err := s.fleet.Blacklisted(ctx, t.sn); err != nil {
		return LinkView{}, err
	} else if black {
		return LinkView{}, apperr.ErrDeviceDisabled
	}
	token := newToken()
	now := db.NowMS()
	expires := now + int64(minutes)*time.Minute.Milliseconds()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO remote_link (device_id, sn, kind, account, status, minutes, token_hash, token_expires_at, opened_by, opened_by_name, opened_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.id, t.sn, kind, access.LinkAccount(p), StatusOpening, minutes, hashToken(token),
		now+s.opt.TokenTTL.Milliseconds(), p.UserID, p.UserName, now, expires)
	if name, ok := kit.Clash(err); ok && name == "uq_remote_link_active" {
		return LinkView{}, ErrLinkBusy
	}
	if err != nil {
		return LinkView{}, fmt.Errorf("remote: add link: %w", err)
	}
	wake, unwait := s.waitChan(id)
	defer unwait()
	bg := context.WithoutCancel(ctx)
	res, err := s.fleet.Send(ctx, p, fleet.SendInput{DeviceIDs: []int64{t.id}, ControlType: fleet.CtlVPNStart, Params: fleet.Params{Link: kind},
		Tunnel: &fleet.TunnelGrant{Token: token, URL: s.tunnelURL(), ExpiresAt: expires}})
	if err != nil {
		s.fail(bg, id)
		return LinkView{}, err
	}
	cmd := res.Commands[0]
	if _, err := s.db.Exec(ctx, `UPDATE remote_link SET command_id = ? WHERE id = ?`, cmd.ID, id); err != nil {
		slog.Warn("remote link command", "link", id, "err", err)
	}
	if cmd.Result == fleet.ResultOffline {
		s.fail(bg, id)
		return LinkView{}, apperr.ErrDeviceOffline
	}
	deadline := time.NewTimer(s.opt.OpenWait)
	defer deadline.Stop()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	commandDone := false
	for {
		l, err := s.link(ctx, id)
		if err != nil {
			return LinkView{}, err
		}
		if l.Status == StatusClosed {
			return LinkView{}, ErrConnectionFailed
		}
		if !commandDone {
			var err error
			if commandDone, err = s.commandOutcome(ctx, p, cmd.ID); err != nil && l.Status != StatusOpen {
				s.fail(bg, id)
				return LinkView{}, err
			}
			commandDone = commandDone || err != nil
		}
		// Open once the tunnel arrived and the VPN start's record is done (the charger takes
		// its next command, a stop or a restart, only then).
		if l.Status == StatusOpen && commandDone {
			return s.view(l, t), nil
		}
		select {
		case <-ctx.Done():
			s.fail(bg, id)
			return LinkView{}, ctx.Err()
		case <-deadline.C:
			s.fail(bg, id)
			return LinkView{}, ErrTimeout
		case <-wake:
		case <-tick.C:
		}
	}
}

// commandOutcome reads the VPN start's result: done (accepted), still waiting, or the error it
// means (spec messages: not supported, VPN error with the charger's status, timeout, offline).
func (s *Service) commandOutcome(ctx context.Context, p *access.Principal, id int64) (bool, error) {
	c, err := s.fleet.CommandDetail(ctx, p, id)
	if err != nil {
		return false, err
	}
	switch c.Result {
	case fleet.ResultWaiting:
		return false, nil
	case fleet.ResultSuccess:
		return true, nil
	case fleet.ResultTimeout:
		return false, ErrTimeout
	case fleet.ResultOffline:
		return false, apperr.ErrDeviceOffline
	}
	if c.Message == "err.not_supported" {
		return false, ErrVPNNotSupported
	}
	var a struct {
		Status string `json:"status"`
	}
	if json.Unmarshal([]byte(c.Answer), &a) == nil && a.Status != "" {
		return false, ErrVPNStatus.With(map[string]any{"status": a.Status})
	}
	return false, ErrConnectionFailed
}

// fail closes a link that did not open in time, and its tunnel if one arrived meanwhile.
func (s *Service) fail(ctx context.Context, id int64) {
	l, err := s.link(ctx, id)
	if err == nil {
		_, err = s.destroy(ctx, l, ReasonFailed)
	}
	if err != nil {
		slog.Warn("remote link not failed", "link", id, "err", err)
	}
}

// Close stops the device's link: a VPN stop (control type 8), then the link is destroyed on
// every node. Stopping needs what opening needs. It answers the stop's command record.
func (s *Service) Close(ctx context.Context, p *access.Principal, deviceID int64) (int64, error) {
	_, l, err := s.activeOf(ctx, p, deviceID)
	if err != nil {
		return 0, err
	}
	stopID, err := s.stop(ctx, p, l, ReasonStopped)
	// Answer once the charger answered the stop, so a new link may follow at once.
	s.waitCommand(ctx, p, stopID)
	return stopID, err
}

// Restart destroys the device's link and opens a new one of the same kind and validity.
func (s *Service) Restart(ctx context.Context, p *access.Principal, deviceID int64) (LinkView, error) {
	t, l, err := s.activeOf(ctx, p, deviceID)
	if err != nil {
		return LinkView{}, err
	}
	stopID, err := s.stop(ctx, p, l, ReasonRestarted)
	if err != nil {
		return LinkView{}, err
	}
	// The charger answers one command at a time: the VPN start waits for the stop's answer.
	s.waitCommand(ctx, p, stopID)
	return s.open(ctx, p, t, l.Kind, l.Minutes)
}

// activeOf is the device's link that is not closed, once p may use it.
func (s *Service) activeOf(ctx context.Context, p *access.Principal, deviceID int64) (target, LinkView, error) {
	t, err := s.device(ctx, p, deviceID)
	if err != nil {
		return t, LinkView{}, err
	}
	l, err := s.active(ctx, t.id)
	if err != nil {
		return t, LinkView{}, err
	}
	if l == nil {
		// A caller who may open no link at all is refused as such, not told there is none.
		if err := s.fleet.CheckLink(ctx, p, t.modelID, KindWeb); err != nil {
			if s.fleet.CheckLink(ctx, p, t.modelID, KindSSH) != nil {
				return t, LinkView{}, err
			}
		}
		return t, LinkView{}, ErrNoLink
	}
	if err := s.allowed(ctx, p, t, l.Kind); err != nil {
		return t, LinkView{}, err
	}
	return t, *l, nil
}

// stop destroys the link, then tells the charger (VPN stop, recorded as p's command; an
// offline or busy charger does not keep the link alive). It returns the VPN stop's command (0:
// none). The link is closed first, so the charger ending its tunnel on the stop is not taken
// for the device's own end.
func (s *Service) stop(ctx context.Context, p *access.Principal, l LinkView, reason string) (int64, error) {
	closed, err := s.destroy(ctx, l, reason)
	var cmd int64
	if l.Status == StatusOpen && closed { // not when another node's sweep ended it meanwhile
		res, serr := s.fleet.Send(ctx, p, fleet.SendInput{DeviceIDs: []int64{l.DeviceID}, ControlType: fleet.CtlVPNStop, Params: fleet.Params{Link: l.Kind}})
		if serr == nil && len(res.Commands) == 1 {
			cmd = res.Commands[0].ID
		} else if serr != nil {
			slog.Info("remote link: VPN stop not sent", "link", l.ID, "err", serr)
		}
	}
	return cmd, err
}

// waitCommand waits (at most OpenWait) until command id is no longer waiting.
func (s *Service) waitCommand(ctx context.Context, p *access.Principal, id int64) {
	if id == 0 {
		return
	}
	for end := time.Now().Add(s.opt.OpenWait); time.Now().Before(end); {
		c, err := s.fleet.CommandDetail(ctx, p, id)
		if err != nil || c.Result != fleet.ResultWaiting {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// destroy closes the link (its row, its sessions) and its tunnel, here or on the node holding
// it. The row is closed even when that node cannot be told (Destruction failed): its sweep then
// ends the tunnel within seconds.
func (s *Service) destroy(ctx context.Context, l LinkView, reason string) (closed bool, err error) {
	if closed, err = s.end(ctx, l.ID, reason); err != nil {
		slog.Warn("remote link not closed", "link", l.ID, "err", err)
		return false, ErrDestroyFailed
	}
	if t := s.local(l.ID); t != nil {
		t.close()
		return closed, nil
	}
	if l.Status == StatusOpen && l.nodeURL != "" && l.nodeURL != s.opt.NodeURL {
		if err := s.relayClose(ctx, l); err != nil {
			slog.Warn("remote link: holder not told", "link", l.ID, "node", l.Node, "err", err)
			return closed, ErrDestroyFailed
		}
	}
	return closed, nil
}

// end closes link id with reason if it is still active, and ends its sessions; closed reports
// whether this call closed it.
func (s *Service) end(ctx context.Context, id int64, reason string) (closed bool, err error) {
	now := db.NowMS()
	res, err := s.db.Exec(ctx, `UPDATE remote_link SET status = ?, closed_at = ?, close_reason = ?, token_hash = '' WHERE id = ? AND status < ?`,
		StatusClosed, now, reason, id, StatusClosed)
	if err != nil {
		return false, fmt.Errorf("remote: close link: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	if err := s.endSessions(ctx, `link_id = ? AND kind IN (?, ?)`, id, KindLink, KindWeb); err != nil {
		return true, err
	}
	return true, nil
}

// endHeldBy closes the links a node of this name held before it stopped.
func (s *Service) endHeldBy(ctx context.Context, node string) error {
	ids, err := db.Column[int64](ctx, s.db, `SELECT id FROM remote_link WHERE status = ? AND node = ?`, StatusOpen, node)
	if err != nil {
		return fmt.Errorf("remote: links of %s: %w", node, err)
	}
	for _, id := range ids {
		if _, err := s.end(ctx, id, ReasonDevice); err != nil {
			return err
		}
	}
	return nil
}

// view completes a link for the API.
func (s *Service) view(l LinkView, t target) LinkView {
	l.WebSupported, l.SSHSupported = t.web, t.ssh
	if l.Status != StatusClosed {
		if rem := (l.ExpiresAt - db.NowMS()) / 1000; rem > 0 {
			l.RemainingSec = rem
		}
	}
	return l
}
