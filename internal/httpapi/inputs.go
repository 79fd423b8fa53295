package httpapi

import "chargeops/internal/kit"

// Inputs and answers shared by the handlers of several domains.

// IDInput names one object (GET detail?id=).
type IDInput struct {
	ID int64 `json:"id"`
}

// IDsInput names objects to act on.
type IDsInput struct {
	IDs kit.IDs `json:"ids"`
}

// IDAnswer is the answer of an add.
type IDAnswer struct {
	ID int64 `json:"id"`
}

// validate: an action names 1 to kit.MaxIDs objects (checked by H for every such input).
func (in IDsInput) validate() error { return in.IDs.Check() }

// StatusInput enables (1) or disables (0) objects.
type StatusInput struct {
	IDs    kit.IDs `json:"ids"`
	Status int     `json:"status"`
}

func (in StatusInput) validate() error { return in.IDs.Check() }

// EnableInput enables or disables objects.
type EnableInput struct {
	IDs     kit.IDs `json:"ids"`
	Enabled bool    `json:"enabled"`
}

func (in EnableInput) validate() error { return in.IDs.Check() }

// FileInput carries an uploaded file as base64 (JSON API; the body limit of the route applies).
type FileInput struct {
	FileName string `json:"fileName"`
	Content  string `json:"content"`
}

// ParamFileInput is a device parameter file to read (base64 content, its file name).
type ParamFileInput struct {
	DeviceID int64  `json:"deviceId"`
	FileName string `json:"fileName"`
	Content  string `json:"content"`
}

// FleetDeviceQuery is the ?deviceId= of a GET.
type FleetDeviceQuery struct {
	DeviceID int64 `json:"deviceId"`
}
