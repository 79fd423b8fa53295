package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/datarange"
	"chargeops/internal/db"
	"chargeops/internal/devstate"
	"chargeops/internal/kit"
	"chargeops/internal/secret"
)

// Control types of docs/ocpp16.md#chargeops--charger (decisions §2 maps them to OCPP 1.6).
const (
	CtlSoftReset        = devstate.CtlSoftReset
	CtlHardReset        = devstate.CtlHardReset
	CtlAvailability     = 3
	CtlConnectorAvail   = 4
	CtlUpdateFirmware   = 5
	CtlGetDiagnostics   = 6
	CtlVPNStart         = 7
	CtlVPNStop          = 8
	CtlGetConfiguration = 9
	CtlTriggerMessage   = 10
	CtlChangeConfig     = 11
	// Operator actions beyond control types 1-11 (docs/decisions.md §6: numbered from 12; docs/ocpp16.md).
	CtlRemoteStart         = 12 // RemoteStartTransaction: params.connectorId (0: the charger picks), params.idTag
	CtlRemoteStop          = 13 // RemoteStopTransaction: params.transactionId
	CtlUnlockConnector     = 14 // UnlockConnector: params.connectorId
	CtlClearCache          = 15 // ClearCache
	CtlDataTransfer        = 16 // DataTransfer for engineers: params.vendorId, params.messageId, params.data
	CtlReserveNow          = 17 // ReserveNow: params.connectorId, params.idTag, params.expiryDate, params.parentIdTag
	CtlCancelReservation   = 18 // CancelReservation: params.reservationId
	CtlSendLocalList       = 19 // SendLocalList: params.updateType Full|Differential (the list is built by the core from the customer's tokens)
	CtlGetLocalListVersion = 20 // GetLocalListVersion
	CtlRenewCertificate    = 21 // ExtendedTriggerMessage SignChargePointCertificate: the charger sends a new CSR (docs/security-profiles.md)
	CtlInstallCertificate  = 22 // InstallCertificate: params.certificateType, params.certificate (PEM)
	CtlGetCertificateIDs   = 23 // GetInstalledCertificateIds: params.certificateType; the answer is stored as the device's installed certificates
	CtlDeleteCertificate   = 24 // DeleteCertificate: params.certificateHashData
	CtlGetLog              = 25 // GetLog: params.logType DiagnosticsLog|SecurityLog; the file lands in the device's attachments
	// Smart charging (issue 25, docs/smart-charging.md; charging_profiles.go).
	CtlSetChargingProfile   = 26 // SetChargingProfile: params.connectorId (0: the charger), params.profile
	CtlClearChargingProfile = 27 // ClearChargingProfile: params.clear (id, or connector/purpose/stack level)
	CtlGetCompositeSchedule = 28 // GetCompositeSchedule: params.connectorId, params.duration (s), params.rateUnit (A, W or ''); the answer is a smartcharging.Composite
	// Storage units (issue 26, docs/mqtt.md "Commands"; storage_commands.go).
	CtlStoragePower      = 29 // the power setpoint: params.powerW (+ discharge, - charge); the unit goes to manual mode
	CtlStorageMode       = 30 // the operating mode: params.mode (ess.Modes)
	CtlStorageRun        = 31 // start (params.enable true) or stop the converter
	CtlStorageFaultReset = 32 // clear latched faults
	maxControlType       = CtlStorageFaultReset
	maxBatchDevices      = 1000
	commandMessageLength = 500
)

// SendInput asks for one control type on one or more devices.
type SendInput struct {
	DeviceIDs   []int64 `json:"deviceIds"`
	ControlType int     `json:"controlType"`
	Params      Params  `json:"params"`
	// Tunnel is the remote-access service's grant for a VPN start (internal/remote,
	// docs/remote-access.md): the one-time token and the URL the charger dials back. Never
	// read from a request body; the command record keeps the token masked.
	Tunnel *TunnelGrant `json:"-"`
}

// TunnelGrant is what a VPN start tells the charger besides the link kind and account.
type TunnelGrant struct {
	Token     string `json:"token"`     // one-time, 128-bit, hex; only its hash is stored
	URL       string `json:"url"`       // ws(s)://<public url>/remote/tunnel
	ExpiresAt int64  `json:"expiresAt"` // the link's end (unix ms)
}

// SentCommand is the per-device answer of Send. A device that got no command (busy, disabled,
// same value) has ID 0 and a code.
type SentCommand struct {
	ID       int64  `json:"id"`
	DeviceID int64  `json:"deviceId"`
	SN       string `json:"sn"`
	Result   int    `json:"result"`
	Code     int    `json:"code,omitempty"`
	Message  string `json:"message,omitempty"`
}

// SendResult is the answer of Send.
type SendResult struct {
	BatchID  string        `json:"batchId"`
	Commands []SentCommand `json:"commands"`
}

type target struct {
	id, modelID int64
	customerID  int64
	siteID      int64
	sn          string
	enabled     bool
}

// Send creates one command per device and starts it. Devices outside the caller's scope are
// not found (the whole call fails before anything is sent). An offline device answers result
// 5 at once, and one held on another node that cannot be asked (the cluster bus is down) result
// 3, each with its message; a device with a command still waiting is busy. With one device a refusal is the
// call's error; with several, the others still get the command and the answer lists each
// device, with code 30003 (some devices busy) when any was busy.
func (s *Service) Send(ctx context.Context, p *access.Principal, in SendInput) (SendResult, error) {
	var res SendResult
	ids := slices.Compact(slices.Sorted(slices.Values(in.DeviceIDs)))
	if len(ids) == 0 || len(ids) > maxBatchDevices {
		return res, apperr.InvalidField("deviceIds", "err.invalid")
	}
	if in.ControlType < 1 || in.ControlType > maxControlType {
		return res, apperr.InvalidField("controlType", "err.invalid")
	}
	if err := validateParams(in.ControlType, &in.Params); err != nil {
		return res, err
	}
	if err := checkOperationAccess(p, in.ControlType, in.Params, len(ids)); err != nil {
		return res, err
	}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	rows, err := s.db.Query(ctx, `SELECT d.id, d.model_id, d.customer_id, d.site_id, d.sn, d.enabled FROM device d WHERE d.id IN (`+db.Placeholders(len(ids))+`) AND `+cond+` ORDER BY d.id`,
		append(db.Args(ids), args...)...)
	if err != nil {
		return res, err
	}
	var targets []target
	for rows.Next() {
		var t target
		var en int
		if err := rows.Scan(&t.id, &t.modelID, &t.customerID, &t.siteID, &t.sn, &en); err != nil {
			rows.Close()
			return res, err
		}
		t.enabled = en == 1
		targets = append(targets, t)
	}
	rows.Close()
	if len(targets) != len(ids) {
		return res, apperr.ErrNotFound
	}
	for _, t := range targets {
		// A platform file, or one of the device's customer (docs/gateway.md, "Files").
		if in.ControlType == CtlUpdateFirmware && !s.FirmwareUsable(ctx, in.Params.FirmwareID, t.customerID) {
			return res, apperr.InvalidField("params.firmwareId", "err.invalid")
		}
	}
	check := sendCheck{p: p, in: in, batch: len(targets) > 1, rules: s.newRulesCache()}
	for _, t := range targets {
		if err := s.checkModel(ctx, check, t); err != nil {
			return res, err
		}
		if err := s.checkOperation(ctx, t, in.Params, in.ControlType); err != nil {
			return res, err
		}
	}
	if in.ControlType != CtlVPNStart {
		in.Tunnel = nil
	}
	stored := in.Params
	if in.ControlType == CtlVPNStart || in.ControlType == CtlVPNStop {
		in.Params.Data = linkData(p, in.ControlType, in.Params.Link, in.Tunnel)
		stored.Data = linkData(p, in.ControlType, in.Params.Link, in.Tunnel.masked())
	}
	var reservationID int64 // a ReserveNow's, on its one device
	if in.ControlType == CtlReserveNow && targets[0].enabled {
		if reservationID, err = s.openReservation(ctx, p, targets[0], in.Params); err != nil {
			return res, err
		}
		in.Params.ReservationID, stored.ReservationID = reservationID, reservationID
	}
	res.BatchID = strconv.FormatInt(time.Now().UnixNano(), 36)
	// The row keeps the parameters with credentials masked; the command that runs carries
	// in.Params, the real values, in memory (and over NATS to the node holding the socket).
	params, _ := json.Marshal(stored)
	params, _ = secret.MaskJSON(params)
	anyBusy := false
	for _, t := range targets {
		sc := SentCommand{DeviceID: t.id, SN: t.sn}
		refuse := func(e *apperr.Error) {
			sc.Code, sc.Message = e.Code, e.Key
			if e.Code == apperr.DeviceBusy {
				anyBusy = true
			}
		}
		switch {
		case !t.enabled:
			refuse(apperr.ErrDeviceDisabled)
		case in.ControlType == CtlChangeConfig && s.sameValue(ctx, t.id, in.Params.Items):
			refuse(apperr.ErrSameValue)
		default:
			st, err := s.start(ctx, p, t, in.ControlType, in.Params, string(params), res.BatchID)
			switch {
			case errors.Is(err, errBusy):
				refuse(apperr.ErrDeviceBusy)
			case err != nil:
				return res, err
			default:
				sc.ID, sc.Result, sc.Message = st.id, st.result, st.message
			}
		}
		res.Commands = append(res.Commands, sc)
		if reservationID > 0 {
			if err := s.reservationSent(ctx, reservationID, sc); err != nil {
				return res, err
			}
		}
	}
	if len(res.Commands) == 1 && res.Commands[0].Code != 0 {
		c := res.Commands[0]
		return res, &apperr.Error{Code: c.Code, Key: c.Message}
	}
	if anyBusy {
		return res, apperr.ErrSomeDevicesBusy.WithData(res)
	}
	return res, nil
}

func validateParams(ct int, p *Params) error {
	p.Location = ""
	if ct != CtlDataTransfer {
		p.Data = "" // the core's for 7 and 8; the engineer's own for 16
	}
	switch ct {
	case CtlStoragePower, CtlStorageMode, CtlStorageRun, CtlStorageFaultReset:
		return validateStorage(ct, p) // storage_commands.go
	case CtlConnectorAvail:
		if p.ConnectorID < 1 {
			return apperr.InvalidField("params.connectorId", "err.invalid")
		}
	case CtlUpdateFirmware:
		if p.FirmwareID <= 0 {
			return apperr.InvalidField("params.firmwareId", "err.required")
		}
	case CtlTriggerMessage:
		switch {
		case p.Message == "":
			p.Message = TriggerMeterValues
		case !slices.Contains(Triggers, p.Message):
			return apperr.InvalidField("params.message", "err.invalid")
		}
	case CtlChangeConfig:
		if len(p.Items) == 0 {
			return apperr.InvalidField("params.items", "err.required")
		}
		for i, it := range p.Items {
			if it.Key == "" || len(it.Key) > 50 || len(it.Value) > 500 {
				return apperr.InvalidField("params.items", "err.invalid")
			}
			if err := checkAuthKeyItem(i, it); err != nil {
				return err
			}
		}
	case CtlVPNStart, CtlVPNStop:
		switch p.Link {
		case "":
			p.Link = access.LinkWeb
		case access.LinkWeb, access.LinkSSH:
		default:
			return apperr.InvalidField("params.link", "err.invalid")
		}
		if p.VendorID == "" {
			p.VendorID = "chargeops"
		}
	default:
		return validateOperation(ct, p, db.NowMS())
	}
	return nil
}

// linkData is the DataTransfer data of a VPN start or stop: the link kind and, to start, the
// device account the caller's role opens it with and, when the remote-access service opens
// the link, its tunnel grant. The core writes it, never the caller (docs/decisions.md,
// "Levels"; docs/remote-access.md).
func linkData(p *access.Principal, ct int, link string, g *TunnelGrant) string {
	d := struct {
		Link      string `json:"link"`
		Account   string `json:"account,omitempty"`
		Token     string `json:"token,omitempty"`
		URL       string `json:"url,omitempty"`
		ExpiresAt int64  `json:"expiresAt,omitempty"`
	}{Link: link}
	if ct == CtlVPNStart {
		d.Account = access.LinkAccount(p)
		if g != nil {
			d.Token, d.URL, d.ExpiresAt = g.Token, g.URL, g.ExpiresAt
		}
	}
	b, _ := json.Marshal(d)
	return string(b)
}

// masked is the grant as the command record keeps it: the token masked.
func (g *TunnelGrant) masked() *TunnelGrant {
	if g == nil {
		return nil
	}
	c := *g
	c.Token = secret.Mask
	return &c
}

// CheckLink reports whether p may open (or close) a remote link of kind on a device of
// modelID: the check a VPN start gets in Send (the control item's level against the role's
// WEB/SSH access and level; docs/decisions.md, "Levels").
func (s *Service) CheckLink(ctx context.Context, p *access.Principal, modelID int64, kind string) error {
	return s.checkControl(ctx, p, modelID, SendInput{ControlType: CtlVPNStart, Params: Params{Link: kind}})
}

// sendCheck is what checkModel needs of one Send call.
type sendCheck struct {
	p     *access.Principal
	in    SendInput
	batch bool
	rules *rulesCache
}

// checkModel holds a command to the device's model and the caller's levels
// (docs/decisions.md, "Levels"): the control type to its control item, and each
// ChangeConfiguration item to its config or param item.
func (s *Service) checkModel(ctx context.Context, c sendCheck, t target) error {
	if err := s.checkControl(ctx, c.p, t.modelID, c.in); err != nil {
		return err
	}
	if c.in.ControlType != CtlChangeConfig {
		return nil
	}
	rules, err := c.rules.get(ctx, t.modelID)
	if err != nil {
		return err
	}
	for i := range c.in.Params.Items {
		if err := s.checkItem(ctx, c, t, rules, i); err != nil {
			return err
		}
	}
	return nil
}

// checkControl: when the model lists control items, the control type must be one of them; the
// item's level (5 when the model lists none) is compared with the role setting of the type.
func (s *Service) checkControl(ctx context.Context, p *access.Principal, modelID int64, in SendInput) error {
	if p.Root {
		return nil
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM model_item WHERE model_id = ? AND kind = ?`, modelID, itemControl).Scan(&n); err != nil {
		return fmt.Errorf("fleet: count control items: %w", err)
	}
	level := 5
	if n > 0 {
		err := s.db.QueryRow(ctx, `SELECT control_level FROM model_item WHERE model_id = ? AND kind = ? AND control_type_code = ?`,
			modelID, itemControl, in.ControlType).Scan(&level)
		if db.NotFound(err) {
			return apperr.ErrNoPermission
		}
		if err != nil {
			return fmt.Errorf("fleet: control item: %w", err)
		}
	}
	switch in.ControlType {
	case CtlVPNStart, CtlVPNStop:
		if !access.CanOpenLink(p, in.Params.Link, level) {
			return apperr.New(apperr.NoPermission, "err.link_not_allowed").With(map[string]any{"link": in.Params.Link})
		}
	case CtlRenewCertificate, CtlInstallCertificate, CtlGetCertificateIDs, CtlDeleteCertificate:
		if !access.CanManageCertificates(p, level) {
			return apperr.New(apperr.NoPermission, "err.certificate_not_allowed")
		}
	case CtlGetConfiguration:
		if !access.CanDownloadConfig(p, level) {
			return apperr.ErrNoPermission
		}
	default:
		if !access.CanUseParam(p, level) {
			return apperr.ErrNoPermission
		}
	}
	return nil
}

// checkItem holds item i of a ChangeConfiguration to what the model says of its key: who may
// write it, the value's type and range, batch support; and to the device: read-only keys.
// Credential keys (AuthorizationKey) and keys the model does not list need root or config
// write level 0.
func (s *Service) checkItem(ctx context.Context, c sendCheck, t target, rules modelRules, i int) error {
	it := c.in.Params.Items[i]
	field := fmt.Sprintf("params.items[%d]", i)
	listed := rules[strings.ToLower(it.Key)]
	switch {
	case secret.IsSecretConfigKey(it.Key) && !access.CanWriteUnlistedConfig(c.p):
		return apperr.New(apperr.NoPermission, "err.config_secret_key").With(map[string]any{"key": it.Key})
	case len(listed) == 0 && !access.CanWriteUnlistedConfig(c.p):
		return apperr.New(apperr.NoPermission, "err.config_unlisted_key").With(map[string]any{"key": it.Key})
	case len(listed) == 0 && c.batch:
		return apperr.InvalidField(it.Key, "err.not_batch")
	}
	for _, r := range listed {
		if !r.canWrite(c.p) {
			return apperr.New(apperr.NoPermission, "err.config_write_level").With(map[string]any{"key": it.Key})
		}
		if !datarange.CheckValue(r.dataType, r.dataRange, it.Value) {
			return apperr.InvalidField(field+".value", "err.config_value_range").
				With(map[string]any{"field": field + ".value", "key": it.Key, "dataType": r.dataType, "range": strings.TrimSpace(r.dataRange)})
		}
		if c.batch && !r.batch {
			return apperr.InvalidField(it.Key, "err.not_batch")
		}
	}
	var ro int
	err := s.db.QueryRow(ctx, `SELECT readonly FROM device_config WHERE device_id = ? AND LOWER(key) = LOWER(?)`, t.id, it.Key).Scan(&ro)
	if err != nil && !db.NotFound(err) {
		return fmt.Errorf("fleet: config readonly: %w", err)
	}
	if ro == 1 {
		return apperr.InvalidField(field+".key", "err.config_readonly").With(map[string]any{"field": field + ".key", "key": it.Key})
	}
	return nil
}

// Model item kinds (the model_item rows of internal/devmodel).
const (
	itemConfig  = "config"
	itemParam   = "param"
	itemControl = "control"
)

// itemRule is what a model says of one config or param key.
type itemRule struct {
	kind                  string
	group, name           string
	readLevel, writeLevel int
	batch                 bool
	dataType, dataRange   string
}

// canRead reports whether p may see the key's value: a config item by the config read level,
// a param item by the parameter level.
func (r itemRule) canRead(p *access.Principal) bool {
	if r.kind == itemParam {
		return access.CanUseParam(p, r.readLevel)
	}
	return access.CanReadConfig(p, r.readLevel)
}

// canWrite reports whether p may change the key: config write level, or parameter level.
func (r itemRule) canWrite(p *access.Principal) bool {
	if r.kind == itemParam {
		return access.CanUseParam(p, r.writeLevel)
	}
	return access.CanWriteConfig(p, r.writeLevel)
}

// modelRules are a model's config and param items by lower-case protocol key (a key may be
// both a config and a param item; every item of the key applies).
type modelRules map[string][]itemRule

// canRead reports whether p may see key's value; keys the model does not list have level 5
// (everyone reads them).
func (m modelRules) canRead(p *access.Principal, key string) bool {
	for _, r := range m[strings.ToLower(key)] {
		if !r.canRead(p) {
			return false
		}
	}
	return true
}

// canWrite reports whether p may change key on a device of the model, by levels alone (the
// device's read-only flag and the value's range are checked apart): credential and unlisted keys
// need CanWriteUnlistedConfig, listed ones every item's write rule.
func (m modelRules) canWrite(p *access.Principal, key string) bool {
	listed := m[strings.ToLower(key)]
	if secret.IsSecretConfigKey(key) || len(listed) == 0 {
		if !access.CanWriteUnlistedConfig(p) {
			return false
		}
	}
	for _, r := range listed {
		if !r.canWrite(p) {
			return false
		}
	}
	return true
}

// rulesCache loads each model's rules once per call.
type rulesCache struct {
	s *Service
	m map[int64]modelRules
}

func (s *Service) newRulesCache() *rulesCache { return &rulesCache{s: s, m: map[int64]modelRules{}} }

func (c *rulesCache) get(ctx context.Context, modelID int64) (modelRules, error) {
	if r, ok := c.m[modelID]; ok {
		return r, nil
	}
	rows, err := c.s.db.Query(ctx, `SELECT protocol_key, kind, config_group, config_item, read_level, write_level, batch, data_type, data_range
		FROM model_item WHERE model_id = ? AND kind IN (?, ?) ORDER BY kind, id`, modelID, itemConfig, itemParam)
	if err != nil {
		return nil, fmt.Errorf("fleet: model items: %w", err)
	}
	defer rows.Close()
	r := modelRules{}
	for rows.Next() {
		var key string
		var it itemRule
		var batch int
		if err := rows.Scan(&key, &it.kind, &it.group, &it.name, &it.readLevel, &it.writeLevel, &batch, &it.dataType, &it.dataRange); err != nil {
			return nil, fmt.Errorf("fleet: model items: %w", err)
		}
		it.batch = batch == 1
		k := strings.ToLower(key)
		r[k] = append(r[k], it)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("fleet: model items: %w", err)
	}
	c.m[modelID] = r
	return r, nil
}

// sameValue reports whether any item would set a value the device already has.
func (s *Service) sameValue(ctx context.Context, deviceID int64, items []KV) bool {
	for _, it := range items {
		var v string
		if err := s.db.QueryRow(ctx, `SELECT value FROM device_config WHERE device_id = ? AND key = ?`, deviceID, it.Key).Scan(&v); err == nil && v == it.Value {
			return true
		}
	}
	return false
}

var errBusy = errors.New("device busy")

// started is a command as start recorded it: waiting, or ended at once with a message key.
type started struct {
	id      int64
	result  int
	message string
}

// msgClusterUnavailable is the message of a command to a device held on another node while the
// cluster bus is down (docs/gateway.md, "Scale-out"): not "offline", and worth a retry.
const msgClusterUnavailable = "err.cluster_unavailable"

// start records the command and, when the device is connected, runs it in the background. A
// device no node holds ends at once as offline; one held on another node that cannot be asked
// (the cluster bus is down) ends at once as failed, "cluster link unavailable, try again", and
// is logged.
func (s *Service) start(ctx context.Context, p *access.Principal, t target, ct int, params Params, paramsJSON, batch string) (started, error) {
	now := db.NowMS()
	endNow := func(result int, message string) (started, error) {
		id, err := db.InsertID(ctx, s.db, `INSERT INTO command (device_id, sn, control_type, params, result, message, batch_id, user_id, user_name, deadline_at, created_at, finished_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.id, t.sn, ct, paramsJSON, result, message, batch, p.UserID, p.UserName, now, now, now)
		if err == nil {
			s.commandEnded(CommandResult{CommandID: id, DeviceID: t.id, SN: t.sn, ControlType: ct, Result: result, Message: message, At: now})
		}
		return started{id: id, result: result, message: message}, err
	}
	link, online := s.Registry.Lookup(t.sn)
	if !online {
		return endNow(ResultOffline, "err.device_offline")
	}
	_, down := link.(Unreachable)
	if !down && s.hot.holds(t.id, link.ConnID()) {
		// a socket held here that a newer connection on another node replaced while the
		// nodes could not tell each other (a partition): closed, never used
		if rec := s.recorded(ctx, t.id); Older(link.ConnID(), rec.conn) && rec.node != s.opt.Node {
			slog.Warn("stale socket closed: a newer connection is recorded on another node", "sn", t.sn, "conn", link.ConnID(), "newer", rec.conn, "holder", rec.node)
			link.Close("replaced by a connection on node " + rec.node)
			down = true
		}
	}
	if down {
		rec := s.recorded(ctx, t.id)
		if !rec.online || rec.node == s.opt.Node {
			return endNow(ResultOffline, "err.device_offline")
		}
		slog.Warn("command not sent: cluster link unavailable", "sn", t.sn, "device", t.id, "controlType", ct, "holder", rec.node)
		return endNow(ResultFailed, msgClusterUnavailable)
	}
	deadline := now + s.opt.CommandTimeout.Milliseconds()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO command (device_id, sn, control_type, params, result, batch_id, user_id, user_name, deadline_at, created_at, node)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.id, t.sn, ct, paramsJSON, ResultWaiting, batch, p.UserID, p.UserName, deadline, now, s.opt.Node)
	if kit.IsClash(err, "uq_command_waiting") {
		return started{}, errBusy
	}
	if err != nil {
		return started{}, err
	}
	cmd := Command{ID: id, DeviceID: t.id, SN: t.sn, ControlType: ct, Params: params}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.run(link, cmd)
	}()
	return started{id: id, result: ResultWaiting}, nil
}

// recordedConn is the connection device_state records for a device.
type recordedConn struct {
	online     bool
	node, conn string
}

// recorded reads the device's recorded connection: what the command path falls back on when
// the node holding the socket cannot be asked, or when a socket held here may be stale.
func (s *Service) recorded(ctx context.Context, deviceID int64) recordedConn {
	var rec recordedConn
	var online int
	err := s.db.QueryRow(ctx, `SELECT online, node, conn_id FROM device_state WHERE device_id = ?`, deviceID).Scan(&online, &rec.node, &rec.conn)
	if err != nil && !db.NotFound(err) {
		slog.Warn("device state not read", "device", deviceID, "err", err)
	}
	rec.online = err == nil && online == 1
	return rec
}

func (s *Service) run(link Link, cmd Command) {
	ctx, cancel := context.WithTimeout(context.Background(), s.opt.CommandTimeout)
	out, err := link.Execute(ctx, cmd)
	cancel()
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		out = Outcome{Result: ResultTimeout, Message: timeoutMessage(cmd.ControlType)}
	case errors.Is(err, ErrLinkClosed):
		out = Outcome{Result: ResultOffline, Message: "err.connection_closed"}
	case errors.Is(err, ErrClusterUnavailable):
		slog.Warn("command not answered: cluster link unavailable", "sn", cmd.SN, "command", cmd.ID, "controlType", cmd.ControlType)
		out = Outcome{Result: ResultFailed, Message: msgClusterUnavailable}
	default:
		out = Outcome{Result: ResultFailed, Message: err.Error()}
	}
	if out.Result == 0 {
		out.Result = ResultFailed
	}
	if len(out.Message) > commandMessageLength {
		out.Message = out.Message[:commandMessageLength]
	}
	answer := secret.MaskString(string(out.Answer)) // a GetConfiguration answer may list the AuthorizationKey
	// the charger's answer is device data: it is written by the ingest pipeline like the rest
	ended := CommandResult{CommandID: cmd.ID, DeviceID: cmd.DeviceID, SN: cmd.SN, ControlType: cmd.ControlType, Result: out.Result, Message: out.Message, At: db.NowMS()}
	s.operationEnded(context.Background(), cmd, out)
	if err := s.endCommand(context.Background(), ended, answer); err != nil {
		slog.Error("command result not saved", "id", cmd.ID, "err", err)
	}
}

// timeoutMessage is the message of a command the charger did not answer in time: a parameter
// set (control type 11) says "Setting timeout", every other one "Command execution timeout"
// (docs/gateway.md, "Commands").
func timeoutMessage(controlType int) string {
	if controlType == CtlChangeConfig {
		return "err.setting_timeout"
	}
	return "err.command_timeout"
}

// sqlCommandResult ends a waiting command with its outcome.
const sqlCommandResult = `UPDATE command SET result = ?, message = ?, answer = ?, finished_at = ? WHERE id = ? AND result = ?`

// CommandView is a command as the API shows it.
type CommandView struct {
	ID          int64           `json:"id"`
	DeviceID    int64           `json:"deviceId"`
	SN          string          `json:"sn"`
	ControlType int             `json:"controlType"`
	Params      json.RawMessage `json:"params"`
	Result      int             `json:"result"`
	Message     string          `json:"message"`
	Answer      string          `json:"answer"`
	BatchID     string          `json:"batchId"`
	UserName    string          `json:"userName"`
	CreatedAt   int64           `json:"createdAt"`
	FinishedAt  int64           `json:"finishedAt"`
	// The step an accepted UpdateFirmware reached as the charger reports it (Accepted,
	// Downloading, Downloaded, Installing, Installed, DownloadFailed, InstallationFailed; ''
	// for other commands) and when it was reported (unix ms, 0: never).
	Progress   string `json:"progress"`
	ProgressAt int64  `json:"progressAt"`
	modelID    int64  // the device's model, whose items decide what the caller reads
}

const commandCols = `c.id, c.device_id, c.sn, c.control_type, c.params, c.result, c.message, c.answer, c.batch_id, c.user_name, c.created_at, c.finished_at, c.progress, c.progress_at, d.model_id`

func scanCommand(row interface{ Scan(...any) error }) (CommandView, error) {
	var c CommandView
	var params string
	err := row.Scan(&c.ID, &c.DeviceID, &c.SN, &c.ControlType, &params, &c.Result, &c.Message, &c.Answer, &c.BatchID, &c.UserName, &c.CreatedAt, &c.FinishedAt, &c.Progress, &c.ProgressAt, &c.modelID)
	c.Params = json.RawMessage(params)
	return c, err
}

// show limits a command to what p may read: the items of a ChangeConfiguration and the keys of
// a GetConfiguration answer to those the caller's levels allow, and credentials masked (also in
// rows written before parameters and answers were stored masked).
func (c *CommandView) show(ctx context.Context, p *access.Principal, rules *rulesCache) error {
	if !p.Root && (c.ControlType == CtlChangeConfig || c.ControlType == CtlGetConfiguration) {
		r, err := rules.get(ctx, c.modelID)
		if err != nil {
			return err
		}
		switch c.ControlType {
		case CtlChangeConfig:
			var prm Params
			if json.Unmarshal(c.Params, &prm) == nil {
				kept := []KV{}
				for _, it := range prm.Items {
					if r.canRead(p, it.Key) {
						kept = append(kept, it)
					}
				}
				prm.Items = kept
				c.Params, _ = json.Marshal(prm)
			}
		case CtlGetConfiguration:
			var doc struct {
				ConfigurationKey []json.RawMessage `json:"configurationKey"`
				UnknownKey       []string          `json:"unknownKey,omitempty"`
			}
			if json.Unmarshal([]byte(c.Answer), &doc) == nil {
				kept := []json.RawMessage{}
				for _, raw := range doc.ConfigurationKey {
					var k struct {
						Key string `json:"key"`
					}
					if json.Unmarshal(raw, &k) == nil && r.canRead(p, k.Key) {
						kept = append(kept, raw)
					}
				}
				doc.ConfigurationKey = kept
				b, _ := json.Marshal(doc)
				c.Answer = string(b)
			}
		}
	}
	c.Params, _ = secret.MaskJSON(c.Params)
	c.Answer = secret.MaskString(c.Answer)
	return nil
}

// CommandDetail returns a command of a device in the caller's scope.
func (s *Service) CommandDetail(ctx context.Context, p *access.Principal, id int64) (CommandView, error) {
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	c, err := scanCommand(s.db.QueryRow(ctx, `SELECT `+commandCols+` FROM command c JOIN device d ON d.id = c.device_id WHERE c.id = ? AND `+cond,
		append([]any{id}, args...)...))
	if db.NotFound(err) {
		return c, apperr.ErrNotFound
	}
	if err != nil {
		return c, fmt.Errorf("fleet: command detail: %w", err)
	}
	return c, c.show(ctx, p, s.newRulesCache())
}

// CommandListInput filters the command history.
type CommandListInput struct {
	db.Page
	DeviceID int64  `json:"deviceId"`
	BatchID  string `json:"batchId"`
}

// CommandList is the command history (newest first).
func (s *Service) CommandList(ctx context.Context, p *access.Principal, in CommandListInput) (db.List[CommandView], error) {
	out := db.List[CommandView]{List: []CommandView{}}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	where := ` WHERE ` + cond
	if in.DeviceID > 0 {
		where += ` AND c.device_id = ?`
		args = append(args, in.DeviceID)
	}
	if in.BatchID != "" {
		where += ` AND c.batch_id = ?`
		args = append(args, in.BatchID)
	}
	from := ` FROM command c JOIN device d ON d.id = c.device_id`
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from+where, args...).Scan(&out.Total); err != nil {
		return out, err
	}
	limit, offset := in.Page.LimitOffset()
	rows, err := s.db.Query(ctx, `SELECT `+commandCols+from+where+fmt.Sprintf(` ORDER BY c.id DESC LIMIT %d OFFSET %d`, limit, offset), args...)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	for rows.Next() {
		c, err := scanCommand(rows)
		if err != nil {
			return out, fmt.Errorf("fleet: command list: %w", err)
		}
		out.List = append(out.List, c)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("fleet: command list: %w", err)
	}
	rules := s.newRulesCache()
	for i := range out.List {
		if err := out.List[i].show(ctx, p, rules); err != nil {
			return out, err
		}
	}
	return out, nil
}
