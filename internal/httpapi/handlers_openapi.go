package httpapi

import (
	"strings"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/fleet/read"
)

// The OpenAPI v1's own handlers, where its query parameters differ from the console's JSON
// bodies; the others are the console's handlers (routes_openapi.go).

// V1EventsInput filters alarms and events; kind is one value where the console sends a list.
type V1EventsInput struct {
	db.Page
	DeviceID int64  `json:"deviceId"`
	SN       string `json:"sn"`
	SiteID   int64  `json:"siteId"`
	Kind     *int   `json:"kind"`   // 0 offline, 1 alarm, 2 fault, 3 unavailable; absent: all
	Status   *int   `json:"status"` // 0 open, 1 ended
	Level    *int   `json:"level"`  // 0 OA, 1 MA, 2 CA
	Start    int64  `json:"startTime"`
	End      int64  `json:"endTime"`
	Sort     string `json:"sort"`
}

func (s *Server) v1Events(c *Ctx, in V1EventsInput) (db.List[AlarmView], error) {
	f := read.EventListInput{Page: in.Page, DeviceID: in.DeviceID, SN: in.SN, SiteID: in.SiteID, Status: in.Status, Level: in.Level,
		Start: in.Start, End: in.End, Sort: in.Sort}
	if in.Kind != nil {
		f.Kinds = []int{*in.Kind}
	}
	return s.alarmList(c, f)
}

// V1SeriesInput asks for meter series; names are comma-separated measurands.
type V1SeriesInput struct {
	DeviceID    int64  `json:"deviceId"`
	Names       string `json:"names"`
	ConnectorID int    `json:"connectorId"`
	Start       int64  `json:"startTime"`
	End         int64  `json:"endTime"`
	Step        int64  `json:"step"` // minutes
}

func (s *Server) v1Series(c *Ctx, in V1SeriesInput) ([]read.Series, error) {
	var names []string
	for n := range strings.SplitSeq(in.Names, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, apperr.InvalidField("names", "err.required")
	}
	return s.dataSeries(c, read.SeriesInput{DeviceID: in.DeviceID, Names: names, ConnectorID: in.ConnectorID, Start: in.Start, End: in.End, Step: in.Step})
}

func (s *Server) v1Sessions(c *Ctx, in read.SessionListInput) (read.SessionList, error) {
	return s.Reads.Sessions(c, c.P, in)
}
