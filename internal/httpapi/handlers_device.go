package httpapi

import (
	"encoding/base64"

	"chargeops/internal/apperr"
	"chargeops/internal/device"
	"chargeops/internal/kit"
)

// The device register: CRUD, status, maintenance, xlsx import and export.

// xlsxType is the content type of xlsx downloads.
const xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

func (s *Server) deviceList(c *Ctx, in device.ListFilter) (device.List, error) {
	return s.Devices.List(c, c.P, in)
}

func (s *Server) deviceDetail(c *Ctx, in IDInput) (device.Device, error) {
	return s.Devices.Get(c, c.P, in.ID)
}

func (s *Server) deviceAdd(c *Ctx, in device.Input) (IDAnswer, error) {
	id, err := s.Devices.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) deviceUpdate(c *Ctx, in device.Input) (*Empty, error) {
	return nil, s.Devices.Update(c, c.P, in)
}

func (s *Server) deviceDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Devices.Delete(c, c.P, in.IDs)
}

func (s *Server) deviceSecurity(c *Ctx, in device.SecurityInput) (*Empty, error) {
	return nil, s.Devices.SetSecurityProfile(c, c.P, in)
}

func (s *Server) deviceKey(c *Ctx, in device.KeyInput) (*device.KeyResult, error) {
	out, err := s.Devices.SetKey(c, c.P, in)
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func (s *Server) deviceProtocol(c *Ctx, in device.ProtocolInput) (*Empty, error) {
	return nil, s.Devices.SetProtocol(c, c.P, in)
}

func (s *Server) deviceEnable(c *Ctx, in EnableInput) (*Empty, error) {
	return nil, s.Devices.SetEnabled(c, c.P, in.IDs, in.Enabled)
}

// MaintainInput puts devices into maintenance mode (on) or takes them out.
type MaintainInput struct {
	IDs kit.IDs `json:"ids"`
	On  bool    `json:"on"`
}

func (in MaintainInput) validate() error { return in.IDs.Check() }

func (s *Server) deviceMaintain(c *Ctx, in MaintainInput) (*Empty, error) {
	return nil, s.Devices.SetMaintainMode(c, c.P, in.IDs, in.On)
}

func (s *Server) deviceMaintained(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Devices.Maintained(c, c.P, in.IDs)
}

// deviceStatusCounts counts by status the devices the list's other filters select.
func (s *Server) deviceStatusCounts(c *Ctx, in device.Filter) (map[int]int64, error) {
	return s.Devices.StatusCounts(c, c.P, in)
}

func (s *Server) deviceImport(c *Ctx, in FileInput) (device.ImportResult, error) {
	raw, err := base64.StdEncoding.DecodeString(in.Content)
	if err != nil {
		return device.ImportResult{}, apperr.New(apperr.Invalid, "err.import_not_xlsx")
	}
	return s.Devices.Import(c, c.P, c.Locale, raw)
}

func (s *Server) deviceTemplate(c *Ctx, _ Empty) (*File, error) {
	b, err := device.Template(c.Locale)
	return &File{Name: "device-import-template.xlsx", ContentType: xlsxType, Body: b}, err
}

func (s *Server) deviceExport(c *Ctx, in device.ListFilter) (*File, error) {
	b, err := s.Devices.Export(c, c.P, c.Locale, in)
	return &File{Name: "devices.xlsx", ContentType: xlsxType, Body: b}, err
}
