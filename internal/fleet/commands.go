package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Control types of spec §9 (decisions §2 maps them to OCPP 1.6).
const (
	CtlSoftReset         = 1
	CtlHardReset         = 2
	CtlAvailability      = 3
	CtlConnectorAvail    = 4
	CtlUpdateFirmware    = 5
	CtlGetDiagnostics    = 6
	CtlVPNStart          = 7
	CtlVPNStop           = 8
	CtlGetConfiguration  = 9
	CtlTriggerMessage    = 10
	CtlChangeConfig      = 11
	maxBatchDevices      = 1000
	commandMessageLength = 500
)

// SendInput asks for one control type on one or more devices.
type SendInput struct {
	DeviceIDs   []int64 `json:"deviceIds"`
	ControlType int     `json:"controlType"`
	Params      Params  `json:"params"`
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
	sn          string
	enabled     bool
}

// Send creates one command per device and starts it. Devices outside the caller's scope are
// not found (the whole call fails before anything is sent). An offline device answers result
// 5 at once; a device with a command still waiting is busy. With one device a refusal is the
// call's error; with several, the others still get the command and the answer lists each
// device, with code 30003 (some devices busy) when any was busy.
func (s *Service) Send(ctx context.Context, p *access.Principal, in SendInput) (SendResult, error) {
	var res SendResult
	ids := slices.Compact(slices.Sorted(slices.Values(in.DeviceIDs)))
	if len(ids) == 0 || len(ids) > maxBatchDevices {
		return res, apperr.InvalidField("deviceIds", "err.invalid")
	}
	if in.ControlType < 1 || in.ControlType > 11 {
		return res, apperr.InvalidField("controlType", "err.invalid")
	}
	if err := validateParams(in.ControlType, &in.Params); err != nil {
		return res, err
	}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	rows, err := s.db.Query(ctx, `SELECT d.id, d.model_id, d.sn, d.enabled FROM device d WHERE d.id IN (`+db.Placeholders(len(ids))+`) AND `+cond+` ORDER BY d.id`,
		append(db.Args(ids), args...)...)
	if err != nil {
		return res, err
	}
	var targets []target
	for rows.Next() {
		var t target
		var en int
		if err := rows.Scan(&t.id, &t.modelID, &t.sn, &en); err != nil {
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
	if in.ControlType == CtlUpdateFirmware && !s.FirmwareExists(ctx, in.Params.FirmwareID) {
		return res, apperr.InvalidField("params.firmwareId", "err.invalid")
	}
	for _, t := range targets {
		if err := s.checkModel(ctx, p, t, in, len(targets) > 1); err != nil {
			return res, err
		}
	}
	res.BatchID = strconv.FormatInt(time.Now().UnixNano(), 36)
	params, _ := json.Marshal(in.Params)
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
			id, result, err := s.start(ctx, p, t, in.ControlType, in.Params, string(params), res.BatchID)
			switch {
			case errors.Is(err, errBusy):
				refuse(apperr.ErrDeviceBusy)
			case err != nil:
				return res, err
			default:
				sc.ID, sc.Result = id, result
			}
		}
		res.Commands = append(res.Commands, sc)
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
	switch ct {
	case CtlConnectorAvail:
		if p.ConnectorID < 1 {
			return apperr.InvalidField("params.connectorId", "err.invalid")
		}
	case CtlUpdateFirmware:
		if p.FirmwareID <= 0 {
			return apperr.InvalidField("params.firmwareId", "err.required")
		}
	case CtlTriggerMessage:
		switch p.Message {
		case "":
			p.Message = "MeterValues"
		case "BootNotification", "DiagnosticsStatusNotification", "FirmwareStatusNotification", "Heartbeat", "MeterValues", "StatusNotification":
		default:
			return apperr.InvalidField("params.message", "err.invalid")
		}
	case CtlChangeConfig:
		if len(p.Items) == 0 {
			return apperr.InvalidField("params.items", "err.required")
		}
		for _, it := range p.Items {
			if it.Key == "" || len(it.Key) > 50 || len(it.Value) > 500 {
				return apperr.InvalidField("params.items", "err.invalid")
			}
		}
	case CtlVPNStart, CtlVPNStop:
		if p.VendorID == "" {
			p.VendorID = "chargeops"
		}
	}
	return nil
}

// checkModel applies the model's control items: when the model lists control items, the
// control type must be one of them at a level the caller's role may use; ChangeConfiguration
// on several devices needs every key's item to allow batch.
func (s *Service) checkModel(ctx context.Context, p *access.Principal, t target, in SendInput, batch bool) error {
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM model_item WHERE model_id = ? AND kind = 'control'`, t.modelID).Scan(&n); err != nil {
		return err
	}
	if n > 0 && !p.Root {
		var level int
		err := s.db.QueryRow(ctx, `SELECT control_level FROM model_item WHERE model_id = ? AND kind = 'control' AND control_type_code = ?`, t.modelID, in.ControlType).Scan(&level)
		if db.NotFound(err) || (err == nil && !access.CanReadLevel(p.Role.ParamLevel, level)) {
			return apperr.ErrNoPermission
		}
		if err != nil {
			return err
		}
	}
	if in.ControlType == CtlChangeConfig && batch {
		for _, it := range in.Params.Items {
			var b int
			err := s.db.QueryRow(ctx, `SELECT batch FROM model_item WHERE model_id = ? AND kind <> 'control' AND protocol_key = ?`, t.modelID, it.Key).Scan(&b)
			if err != nil && !db.NotFound(err) {
				return err
			}
			if b != 1 {
				return apperr.InvalidField(it.Key, "err.not_batch")
			}
		}
	}
	return nil
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

// start records the command and, when the device is connected, runs it in the background.
func (s *Service) start(ctx context.Context, p *access.Principal, t target, ct int, params Params, paramsJSON, batch string) (int64, int, error) {
	now := db.NowMS()
	link, online := s.Registry.Lookup(t.sn)
	if !online {
		id, err := db.InsertID(ctx, s.db, `INSERT INTO command (device_id, sn, control_type, params, result, message, batch_id, user_id, user_name, deadline_at, created_at, finished_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, t.id, t.sn, ct, paramsJSON, ResultOffline, "err.device_offline", batch, p.UserID, p.UserName, now, now, now)
		return id, ResultOffline, err
	}
	deadline := now + s.opt.CommandTimeout.Milliseconds()
	id, err := db.InsertID(ctx, s.db, `INSERT INTO command (device_id, sn, control_type, params, result, batch_id, user_id, user_name, deadline_at, created_at)
		VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`, t.id, t.sn, ct, paramsJSON, batch, p.UserID, p.UserName, deadline, now)
	if db.IsUniqueViolation(err) {
		return 0, 0, errBusy
	}
	if err != nil {
		return 0, 0, err
	}
	cmd := Command{ID: id, DeviceID: t.id, SN: t.sn, ControlType: ct, Params: params}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.run(link, cmd)
	}()
	return id, ResultWaiting, nil
}

func (s *Service) run(link Link, cmd Command) {
	ctx, cancel := context.WithTimeout(context.Background(), s.opt.CommandTimeout)
	out, err := link.Execute(ctx, cmd)
	cancel()
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded):
		out = Outcome{Result: ResultTimeout, Message: "err.command_timeout"}
	case errors.Is(err, ErrLinkClosed):
		out = Outcome{Result: ResultOffline, Message: "err.connection_closed"}
	default:
		out = Outcome{Result: ResultFailed, Message: err.Error()}
	}
	if out.Result == 0 {
		out.Result = ResultFailed
	}
	if len(out.Message) > commandMessageLength {
		out.Message = out.Message[:commandMessageLength]
	}
	answer := string(out.Answer)
	if _, err := s.db.Exec(context.Background(), `UPDATE command SET result = ?, message = ?, answer = ?, finished_at = ? WHERE id = ? AND result = 1`,
		out.Result, out.Message, answer, db.NowMS(), cmd.ID); err != nil {
		slog.Error("command result not saved", "id", cmd.ID, "err", err)
	}
}

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
}

const commandCols = `c.id, c.device_id, c.sn, c.control_type, c.params, c.result, c.message, c.answer, c.batch_id, c.user_name, c.created_at, c.finished_at`

func scanCommand(row interface{ Scan(...any) error }) (CommandView, error) {
	var c CommandView
	var params string
	err := row.Scan(&c.ID, &c.DeviceID, &c.SN, &c.ControlType, &params, &c.Result, &c.Message, &c.Answer, &c.BatchID, &c.UserName, &c.CreatedAt, &c.FinishedAt)
	c.Params = json.RawMessage(params)
	return c, err
}

// CommandDetail returns a command of a device in the caller's scope.
func (s *Service) CommandDetail(ctx context.Context, p *access.Principal, id int64) (CommandView, error) {
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	c, err := scanCommand(s.db.QueryRow(ctx, `SELECT `+commandCols+` FROM command c JOIN device d ON d.id = c.device_id WHERE c.id = ? AND `+cond,
		append([]any{id}, args...)...))
	if db.NotFound(err) {
		return c, apperr.ErrNotFound
	}
	return c, err
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
			return out, err
		}
		out.List = append(out.List, c)
	}
	return out, rows.Err()
}
