// Package device owns the device register: which chargers and storage units exist, at which
// site, of which model, and their administrative state (enabled, maintenance). Live state
// (status, alarms, runtime) is written by the fleet core; this package reads it for lists.
package device

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devmodel"
)

// Device as the API shows it.
type Device struct {
	ID               int64    `json:"id"`
	SN               string   `json:"sn"`
	Name             string   `json:"name"`
	ModelID          int64    `json:"modelId"`
	ModelName        string   `json:"modelName"`
	SiteID           int64    `json:"siteId"`
	SiteName         string   `json:"siteName"`
	CustomerID       int64    `json:"customerId"`
	CustomerName     string   `json:"customerName"`
	SoftwareVersion  string   `json:"softwareVersion"`
	InstallDate      string   `json:"installDate"`
	ArrivalDate      string   `json:"arrivalDate"`
	MaintenanceCycle int      `json:"maintenanceCycle"`
	UnmaintainedDays int      `json:"unmaintainedDays"`
	MaintenanceDue   bool     `json:"maintenanceDue"`
	TotalRuntime     int64    `json:"totalRuntime"`
	LastRefreshAt    int64    `json:"lastRefreshAt"`
	Status           int      `json:"status"`
	AlarmStatus      int      `json:"alarmStatus"`
	Enabled          bool     `json:"enabled"`
	MaintainMode     bool     `json:"maintainMode"`
	Images           []string `json:"images"`
	CreatedAt        int64    `json:"createdAt"`
	UpdatedAt        int64    `json:"updatedAt"`
}

// Notifier is the live fleet, which owns a device's status: it recomputes the status after an
// administrative change and cuts the connection of a device that may no longer connect.
type Notifier interface {
	DeviceChanged(ctx context.Context, deviceID int64)
	DeviceGone(sn string)
}

// Service reads and changes devices.
type Service struct {
	db       *db.DB
	notifier Notifier
}

func NewService(d *db.DB) *Service { return &Service{db: d} }

// SetNotifier connects the gateway.
func (s *Service) SetNotifier(n Notifier) { s.notifier = n }

func (s *Service) changed(ctx context.Context, id int64) {
	if s.notifier != nil {
		s.notifier.DeviceChanged(ctx, id)
	}
}

func (s *Service) gone(sn string) {
	if s.notifier != nil {
		s.notifier.DeviceGone(sn)
	}
}

const from = `device d JOIN device_model m ON m.id = d.model_id JOIN site s ON s.id = d.site_id JOIN customer c ON c.id = d.customer_id`

const columns = `d.id, d.sn, d.name, d.model_id, m.name, d.site_id, s.name, d.customer_id, c.name, d.software_version, d.install_date, d.arrival_date,
	d.maintenance_cycle, d.last_maintained_at, d.total_runtime, d.last_refresh_at, d.status, d.alarm_status, d.enabled, d.maintain_mode, d.images,
	d.created_at, d.updated_at`

func scan(r db.Scanner) (Device, error) {
	var d Device
	var lastMaintained int64
	var enabled, maintain int
	var images string
	err := r.Scan(&d.ID, &d.SN, &d.Name, &d.ModelID, &d.ModelName, &d.SiteID, &d.SiteName, &d.CustomerID, &d.CustomerName, &d.SoftwareVersion,
		&d.InstallDate, &d.ArrivalDate, &d.MaintenanceCycle, &lastMaintained, &d.TotalRuntime, &d.LastRefreshAt, &d.Status, &d.AlarmStatus,
		&enabled, &maintain, &images, &d.CreatedAt, &d.UpdatedAt)
	d.Enabled, d.MaintainMode = enabled == 1, maintain == 1
	d.Images = []string{}
	_ = json.Unmarshal([]byte(images), &d.Images)
	d.UnmaintainedDays = int((time.Now().UnixMilli() - max(lastMaintained, d.CreatedAt)) / (24 * time.Hour).Milliseconds())
	d.MaintenanceDue = d.MaintenanceCycle > 0 && d.UnmaintainedDays >= d.MaintenanceCycle
	return d, err
}

func scoped(sc access.Scope) *db.Query {
	q := &db.Query{From: from}
	cond, args := sc.SiteCond("d.customer_id", "d.site_id")
	return q.And(cond, args...)
}

// Get returns a device in scope.
func (s *Service) Get(ctx context.Context, sc access.Scope, id int64) (Device, error) {
	return db.One(ctx, s.db, scoped(sc).And("d.id = ?", id), columns, scan, apperr.ErrNotFound)
}

// Input adds or changes a device.
type Input struct {
	ID               int64    `json:"id"`
	SN               string   `json:"sn"`
	Name             string   `json:"name"`
	ModelID          int64    `json:"modelId"`
	SiteID           int64    `json:"siteId"`
	SoftwareVersion  string   `json:"softwareVersion"`
	InstallDate      string   `json:"installDate"`
	ArrivalDate      string   `json:"arrivalDate"`
	MaintenanceCycle int      `json:"maintenanceCycle"`
	Images           []string `json:"images"`
}

// snRule: what a charger can put at the end of its OCPP URL (decisions §2): letters, digits,
// '-' and '_', 4-48 characters, starting with a letter or digit.
var snRule = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{3,47}$`)

// ValidSN reports whether sn has the SN format.
func ValidSN(sn string) bool { return snRule.MatchString(sn) }

var dateRule = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func validDate(s string) bool {
	if s == "" {
		return true
	}
	if !dateRule.MatchString(s) {
		return false
	}
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

func (in *Input) normalise() error {
	in.SN, in.Name = strings.TrimSpace(in.SN), strings.TrimSpace(in.Name)
	switch {
	case !ValidSN(in.SN):
		return apperr.New(apperr.Invalid, "err.sn_format")
	case in.Name == "" || len([]rune(in.Name)) > 64:
		return apperr.InvalidField("name", "err.required")
	case in.ModelID == 0:
		return apperr.InvalidField("modelId", "err.required")
	case in.SiteID == 0:
		return apperr.InvalidField("siteId", "err.required")
	case !validDate(in.InstallDate):
		return apperr.InvalidField("installDate", "err.invalid")
	case !validDate(in.ArrivalDate):
		return apperr.InvalidField("arrivalDate", "err.invalid")
	case in.MaintenanceCycle < 0 || in.MaintenanceCycle > 3650:
		return apperr.InvalidField("maintenanceCycle", "err.invalid")
	case len(in.SoftwareVersion) > 64 || len(in.Images) > 10:
		return apperr.InvalidField("softwareVersion", "err.invalid")
	}
	if in.Images == nil {
		in.Images = []string{}
	}
	return nil
}

// siteCustomer returns the customer of a site the caller may use, checking the device may use
// the model there: a platform model or one of that customer (docs/decisions.md#device-models).
func (s *Service) siteCustomer(ctx context.Context, q db.Querier, sc access.Scope, siteID, modelID int64) (int64, error) {
	var customerID int64
	err := q.QueryRow(ctx, `SELECT customer_id FROM site WHERE id = ?`, siteID).Scan(&customerID)
	if db.NotFound(err) || (err == nil && !sc.HasSite(customerID, siteID)) {
		return 0, apperr.InvalidField("siteId", "err.invalid")
	}
	if err != nil {
		return 0, fmt.Errorf("device: site: %w", err)
	}
	if err := devmodel.CheckUsable(ctx, q, modelID, customerID); err != nil {
		return 0, err
	}
	return customerID, nil
}

// checkUnique refuses an SN or a name another device holds. SNs and names are unique across
// the platform, but only a clash with a device the caller sees says "already exists"; any
// other clash gets a neutral refusal that tells neither whether nor whose the device is
// (docs/decisions.md#device-sn-and-name).
func checkUnique(ctx context.Context, q db.Querier, sc access.Scope, in Input) error {
	for _, f := range []struct{ column, value, field, taken, unusable string }{
		{"sn", in.SN, "sn", "err.sn_taken", "err.sn_unusable"},
		{"name", in.Name, "name", "err.device_name_taken", "err.device_name_unusable"},
	} {
		var customerID, siteID int64
		err := q.QueryRow(ctx, `SELECT customer_id, site_id FROM device WHERE `+f.column+` = ? AND id <> ?`, f.value, in.ID).Scan(&customerID, &siteID)
		switch {
		case db.NotFound(err):
			continue
		case err != nil:
			return fmt.Errorf("device: unique %s: %w", f.column, err)
		case sc.HasSite(customerID, siteID):
			return apperr.New(apperr.Conflict, f.taken)
		default:
			return apperr.InvalidField(f.field, f.unusable)
		}
	}
	return nil
}

// uniqueError maps a unique-constraint failure that the checks before the write could not see
// (a device added at the same moment) to the neutral refusal, by constraint name.
func uniqueError(err error) error {
	if !db.IsUniqueViolation(err) {
		return err
	}
	if msg := err.Error(); strings.Contains(msg, "device.sn") || strings.Contains(msg, "device_sn_key") {
		return apperr.InvalidField("sn", "err.sn_unusable")
	}
	return apperr.InvalidField("name", "err.device_name_unusable")
}

// Add registers a device at a site in scope. The live fleet is told (a connection of its SN
// waiting as Pending becomes the device's: docs/gateway.md, "Admission").
func (s *Service) Add(ctx context.Context, sc access.Scope, in Input) (int64, error) {
	in.ID = 0
	if err := in.normalise(); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		id, err = s.insert(ctx, tx, sc, in)
		return err
	})
	if err == nil {
		s.changed(ctx, id)
	}
	return id, err
}

func (s *Service) insert(ctx context.Context, tx *db.Tx, sc access.Scope, in Input) (int64, error) {
	customerID, err := s.siteCustomer(ctx, tx, sc, in.SiteID, in.ModelID)
	if err != nil {
		return 0, err
	}
	if err := checkUnique(ctx, tx, sc, in); err != nil {
		return 0, err
	}
	images, _ := json.Marshal(in.Images)
	now := db.NowMS()
	id, err := db.InsertID(ctx, tx, `INSERT INTO device (sn, name, model_id, site_id, customer_id, software_version, install_date, arrival_date,
		maintenance_cycle, last_maintained_at, images, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
		in.SN, in.Name, in.ModelID, in.SiteID, customerID, in.SoftwareVersion, in.InstallDate, in.ArrivalDate, in.MaintenanceCycle, now, string(images), now, now)
	if err != nil {
		return 0, uniqueError(err)
	}
	// A device that was waiting as pending is now known.
	if _, err := tx.Exec(ctx, `DELETE FROM device_pending WHERE sn = ?`, in.SN); err != nil {
		return 0, err
	}
	return id, nil
}

// Update changes a device in scope; its new site must be in scope too.
func (s *Service) Update(ctx context.Context, sc access.Scope, in Input) error {
	if err := in.normalise(); err != nil {
		return err
	}
	old, err := s.Get(ctx, sc, in.ID)
	if err != nil {
		return err
	}
	if old.SN != in.SN {
		return apperr.InvalidField("sn", "err.invalid") // the SN is the device's identity on the wire
	}
	customerID, err := s.siteCustomer(ctx, s.db, sc, in.SiteID, in.ModelID)
	if err != nil {
		return err
	}
	if err := checkUnique(ctx, s.db, sc, in); err != nil {
		return err
	}
	images, _ := json.Marshal(in.Images)
	_, err = s.db.Exec(ctx, `UPDATE device SET name = ?, model_id = ?, site_id = ?, customer_id = ?, software_version = ?, install_date = ?, arrival_date = ?,
		maintenance_cycle = ?, images = ?, updated_at = ? WHERE id = ?`, in.Name, in.ModelID, in.SiteID, customerID, in.SoftwareVersion, in.InstallDate,
		in.ArrivalDate, in.MaintenanceCycle, string(images), db.NowMS(), in.ID)
	return uniqueError(err)
}

// forEach runs fn for each device in scope, failing on the first one not found.
func (s *Service) forEach(ctx context.Context, sc access.Scope, ids []int64, fn func(d Device) error) error {
	for _, id := range ids {
		d, err := s.Get(ctx, sc, id)
		if err != nil {
			return err
		}
		if err := fn(d); err != nil {
			return err
		}
	}
	return nil
}

// SetEnabled enables or disables devices. A disabled device shows Disabled and the gateway
// drops and refuses its connection; an enabled one shows Offline until it connects.
func (s *Service) SetEnabled(ctx context.Context, sc access.Scope, ids []int64, enabled bool) error {
	return s.forEach(ctx, sc, ids, func(d Device) error {
		if d.Enabled == enabled {
			return nil
		}
		if _, err := s.db.Exec(ctx, `UPDATE device SET enabled = ?, updated_at = ? WHERE id = ?`, db.BoolInt(enabled), db.NowMS(), d.ID); err != nil {
			return err
		}
		if !enabled {
			s.gone(d.SN)
		}
		s.changed(ctx, d.ID)
		return nil
	})
}

// SetMaintainMode puts devices into maintenance mode (status Maintain) or takes them out.
func (s *Service) SetMaintainMode(ctx context.Context, sc access.Scope, ids []int64, on bool) error {
	return s.forEach(ctx, sc, ids, func(d Device) error {
		_, err := s.db.Exec(ctx, `UPDATE device SET maintain_mode = ?, updated_at = ? WHERE id = ?`, db.BoolInt(on), db.NowMS(), d.ID)
		if err == nil {
			s.changed(ctx, d.ID)
		}
		return err
	})
}

// Maintained records a maintenance: it ends maintenance mode and resets the unmaintained period.
func (s *Service) Maintained(ctx context.Context, sc access.Scope, ids []int64) error {
	return s.forEach(ctx, sc, ids, func(d Device) error {
		now := db.NowMS()
		_, err := s.db.Exec(ctx, `UPDATE device SET maintain_mode = 0, last_maintained_at = ?, updated_at = ? WHERE id = ?`, now, now, d.ID)
		if err == nil {
			s.changed(ctx, d.ID)
		}
		return err
	})
}

// Delete removes devices in scope; the gateway forgets them.
func (s *Service) Delete(ctx context.Context, sc access.Scope, ids []int64) error {
	return s.forEach(ctx, sc, ids, func(d Device) error {
		if _, err := s.db.Exec(ctx, `DELETE FROM device WHERE id = ?`, d.ID); err != nil {
			return err
		}
		s.gone(d.SN)
		return nil
	})
}
