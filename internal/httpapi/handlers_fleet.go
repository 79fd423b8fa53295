package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/i18n"
)

// FleetIDQuery is the ?id= of a GET detail.
type FleetIDQuery struct {
	ID int64 `json:"id"`
}

// FleetDeviceQuery is the ?deviceId= of a GET.
type FleetDeviceQuery struct {
	DeviceID int64 `json:"deviceId"`
}

// FleetIDs is the body of a delete.
type FleetIDs struct {
	IDs []int64 `json:"ids"`
}

// FleetIDAnswer is the answer of an add.
type FleetIDAnswer struct {
	ID int64 `json:"id"`
}

func (s *Server) controlSend(c *Ctx, in fleet.SendInput) (fleet.SendResult, error) {
	res, err := s.Fleet.Send(c, c.P, in)
	for i := range res.Commands {
		if res.Commands[i].Message != "" {
			res.Commands[i].Message = i18n.T(c.Locale, res.Commands[i].Message, nil)
		}
	}
	if e, ok := apperr.As(err); ok && e.Data != nil {
		err = e.WithData(res)
	}
	return res, err
}

func (s *Server) localiseCommand(c *Ctx, v *fleet.CommandView) {
	if v.Message != "" {
		v.Message = i18n.T(c.Locale, v.Message, nil)
	}
}

func (s *Server) controlDetail(c *Ctx, in FleetIDQuery) (fleet.CommandView, error) {
	v, err := s.Fleet.CommandDetail(c, c.P, in.ID)
	s.localiseCommand(c, &v)
	return v, err
}

func (s *Server) controlList(c *Ctx, in fleet.CommandListInput) (db.List[fleet.CommandView], error) {
	l, err := s.Fleet.CommandList(c, c.P, in)
	for i := range l.List {
		s.localiseCommand(c, &l.List[i])
	}
	return l, err
}

func (s *Server) runtimeDetail(c *Ctx, in FleetIDQuery) (fleet.RuntimeView, error) {
	return s.Fleet.Runtime(c, c.P, in.ID)
}

func (s *Server) alarmList(c *Ctx, in fleet.EventListInput) (db.List[fleet.EventView], error) {
	return s.Fleet.Events(c, c.P, in)
}

func (s *Server) dataSeries(c *Ctx, in fleet.SeriesInput) ([]fleet.Series, error) {
	loc, err := time.LoadLocation(s.opt.TimeZone)
	if err != nil || s.opt.TimeZone == "" {
		loc = time.UTC
	}
	return s.Fleet.SeriesData(c, c.P, in, loc)
}

func (s *Server) configValues(c *Ctx, in FleetDeviceQuery) ([]fleet.ConfigItem, error) {
	return s.Fleet.ConfigValues(c, c.P, in.DeviceID)
}

// FirmwareAddInput names a firmware file to upload.
type FirmwareAddInput struct {
	Name string `json:"name"`
}

// FirmwareAddAnswer says where to PUT the file's bytes (signed, valid 3600 s).
type FirmwareAddAnswer struct {
	ID        int64  `json:"id"`
	UploadURL string `json:"uploadUrl"`
}

func (s *Server) firmwareAdd(c *Ctx, in FirmwareAddInput) (FirmwareAddAnswer, error) {
	if in.Name == "" || len(in.Name) > 200 {
		return FirmwareAddAnswer{}, apperr.InvalidField("name", "err.required")
	}
	f, path, err := s.Fleet.NewFirmware(c, in.Name, c.P.UserName)
	return FirmwareAddAnswer{ID: f.ID, UploadURL: path}, err
}

func (s *Server) firmwareList(c *Ctx, in fleet.FileListInput) (db.List[fleet.FileInfo], error) {
	in.Kind = "firmware"
	return s.Fleet.Files(c, c.P, in)
}

func (s *Server) diagnosticsList(c *Ctx, in fleet.FileListInput) (db.List[fleet.FileInfo], error) {
	in.Kind = "diagnostics"
	return s.Fleet.Files(c, c.P, in)
}

// FleetURLAnswer is a signed link.
type FleetURLAnswer struct {
	URL string `json:"url"`
}

func (s *Server) fileURL(c *Ctx, in FleetIDQuery) (FleetURLAnswer, error) {
	u, err := s.Fleet.FileDownload(c, c.P, in.ID)
	return FleetURLAnswer{URL: u}, err
}

// BlacklistAddInput is the body of blacklist/add.
type BlacklistAddInput struct {
	SN              string `json:"sn"`
	MAC             string `json:"mac"`
	ProtocolVersion string `json:"protocolVersion"`
}

func (s *Server) blacklistAdd(c *Ctx, in BlacklistAddInput) (FleetIDAnswer, error) {
	id, err := s.Fleet.BlacklistAdd(c, c.P, in.SN, in.MAC, in.ProtocolVersion)
	return FleetIDAnswer{ID: id}, err
}

func (s *Server) blacklistList(c *Ctx, in fleet.BlacklistInput) (db.List[fleet.BlacklistEntry], error) {
	return s.Fleet.Blacklist(c, in)
}

func (s *Server) blacklistDelete(c *Ctx, in FleetIDs) (Empty, error) {
	return Empty{}, s.Fleet.BlacklistDelete(c, in.IDs)
}

func (s *Server) pendingList(c *Ctx, in fleet.PendingInput) (db.List[fleet.PendingDevice], error) {
	return s.Fleet.Pending(c, in)
}

func (s *Server) refusalList(c *Ctx, in fleet.PendingInput) (db.List[fleet.Refusal], error) {
	return s.Fleet.Refusals(c, in)
}

func (s *Server) protocolLogList(c *Ctx, in fleet.LogListInput) (db.List[fleet.LogView], error) {
	return s.Fleet.ProtocolLogs(c, c.P, in)
}

// GatewayStats are this node's gateway counters.
type GatewayStats struct {
	Connections  int   `json:"connections"`
	LogQueue     int   `json:"logQueue"`
	LogQueueCap  int   `json:"logQueueCap"`
	LogsWritten  int64 `json:"logsWritten"`
	LogsBlocked  int64 `json:"logsBlocked"`
	LogMaxBatch  int64 `json:"logMaxBatch"`
	CommandLimit int64 `json:"commandTimeoutMs"`
}

func (s *Server) gatewayStats(c *Ctx, _ Empty) (GatewayStats, error) {
	w, b, m := s.Fleet.Logs.Stats()
	return GatewayStats{Connections: s.Fleet.Registry.Count(), LogQueue: s.Fleet.Logs.QueueLen(), LogQueueCap: s.Fleet.Logs.QueueCap(),
		LogsWritten: w, LogsBlocked: b, LogMaxBatch: m, CommandLimit: s.Fleet.Options().CommandTimeout.Milliseconds()}, nil
}

// StatusStreamEvent documents one server-sent event ("event: status", data is this JSON).
type StatusStreamEvent = fleet.StatusEvent

// statusStream streams device status changes (text/event-stream) to a console, filtered by
// the caller's data scope. A comment line every 25 s keeps proxies from closing it.
func (s *Server) statusStream() Handler {
	return Handler{in: reflect.TypeFor[Empty](), out: reflect.TypeFor[StatusStreamEvent](), raw: true, serve: func(c *Ctx) (any, error) {
		fl, ok := c.W.(http.Flusher)
		if !ok {
			return nil, apperr.ErrInternal
		}
		events, stop := s.Fleet.Hub.Subscribe()
		defer stop()
		h := c.W.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Accel-Buffering", "no")
		c.W.WriteHeader(http.StatusOK)
		fmt.Fprint(c.W, "retry: 5000\n: connected\n\n")
		fl.Flush()
		keep := time.NewTicker(25 * time.Second)
		defer keep.Stop()
		for {
			select {
			case <-c.R.Context().Done():
				return nil, nil
			case <-keep.C:
				fmt.Fprint(c.W, ": keep-alive\n\n")
			case e := <-events:
				if !c.P.Scope.HasSite(e.CustomerID, e.SiteID) {
					continue
				}
				b, _ := json.Marshal(e)
				fmt.Fprintf(c.W, "event: status\ndata: %s\n\n", b)
			}
			fl.Flush()
		}
	}}
}
