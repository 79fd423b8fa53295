package httpapi

import (
	"encoding/base64"
	"time"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet"
	"chargeops/internal/fleet/read"
	"chargeops/internal/i18n"
	"chargeops/internal/remote"
)

// Remote operations and what a device reports: commands, runtime, alarms, series, configuration.

func (s *Server) controlSend(c *Ctx, in fleet.SendInput) (fleet.SendResult, error) {
	if s.Remote != nil && (in.ControlType == fleet.CtlVPNStart || in.ControlType == fleet.CtlVPNStop) {
		return s.linkCommand(c, in)
	}
	res, err := s.Fleet.Send(c, c.P, in)
	localiseSent(c, &res)
	if e, ok := apperr.As(err); ok && e.Data != nil {
		err = e.WithData(res)
	}
	return res, err
}

// linkCommand sends control types 7 and 8 as what they are, the remote link's start and stop
// (docs/remote-access.md), on one device: the same link the device page opens, with its tunnel,
// validity and audit, answered as the command it made.
func (s *Server) linkCommand(c *Ctx, in fleet.SendInput) (fleet.SendResult, error) {
	var res fleet.SendResult
	if len(in.DeviceIDs) != 1 {
		return res, apperr.New(apperr.Invalid, "err.remote_one_device").With(map[string]any{"field": "deviceIds"})
	}
	id := in.DeviceIDs[0]
	var cmdID int64
	if in.ControlType == fleet.CtlVPNStart {
		kind := in.Params.Link
		if kind == "" {
			kind = remote.KindWeb
		}
		l, err := s.Remote.Open(c, c.P, remote.OpenInput{DeviceID: id, Kind: kind})
		if err != nil {
			return res, err
		}
		cmdID = l.CommandID
	} else {
		var err error
		if cmdID, err = s.Remote.Close(c, c.P, id); err != nil {
			return res, err
		}
	}
	v, err := s.Fleet.CommandDetail(c, c.P, cmdID)
	if err != nil {
		return res, err
	}
	s.localiseCommand(c, &v)
	res.Commands = []fleet.SentCommand{{ID: v.ID, DeviceID: id, SN: v.SN, Result: v.Result, Message: v.Message}}
	return res, nil
}

// localiseSent puts the per-device messages of a send in the caller's language.
func localiseSent(c *Ctx, res *fleet.SendResult) {
	for i := range res.Commands {
		if res.Commands[i].Message != "" {
			res.Commands[i].Message = i18n.CommandMessage(c.Locale, res.Commands[i].Message)
		}
	}
}

func (s *Server) localiseCommand(c *Ctx, v *fleet.CommandView) {
	if v.Message != "" {
		v.Message = i18n.CommandMessage(c.Locale, v.Message)
	}
}

func (s *Server) controlDetail(c *Ctx, in IDInput) (fleet.CommandView, error) {
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

func (s *Server) runtimeDetail(c *Ctx, in IDInput) (read.RuntimeView, error) {
	return s.Reads.Runtime(c, c.P, in.ID)
}

func (s *Server) alarmList(c *Ctx, in read.EventListInput) (db.List[AlarmView], error) {
	events, err := s.Reads.Events(c, c.P, in)
	if err != nil {
		return db.List[AlarmView]{}, err
	}
	return s.withAlarmDocs(c, events) // each alarm's document (handlers_docs.go)
}

func (s *Server) dataSeries(c *Ctx, in read.SeriesInput) ([]read.Series, error) {
	loc, err := time.LoadLocation(s.opt.TimeZone)
	if err != nil || s.opt.TimeZone == "" {
		loc = time.UTC
	}
	return s.Reads.SeriesData(c, c.P, in, loc)
}

func (s *Server) configValues(c *Ctx, in FleetDeviceQuery) ([]fleet.ConfigItem, error) {
	return s.Fleet.ConfigValues(c, c.P, in.DeviceID)
}

func (s *Server) deviceCertificates(c *Ctx, in FleetDeviceQuery) ([]fleet.Certificate, error) {
	return s.Fleet.DeviceCertificates(c, c.P, in.DeviceID)
}

func (s *Server) configImport(c *Ctx, in ParamFileInput) ([]fleet.ConfigItem, error) {
	raw, err := base64.StdEncoding.DecodeString(in.Content)
	if err != nil {
		return nil, apperr.New(apperr.Invalid, "err.param_import_format")
	}
	return s.Fleet.ImportParams(c, c.P, in.DeviceID, in.FileName, raw)
}
