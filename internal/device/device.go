// Package device owns the device register: which chargers and storage units exist, at which
// site, of which model, and their administrative state (enabled, maintenance). Live state
// (status, alarms, runtime) is written by the fleet core; this package reads it for lists.
package device

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devmodel"
	"chargeops/internal/kit"
)

// Device as the API shows it.
type Device struct {
	ID        int64  `json:"id"`
	SN        string `json:"sn"`
	Name      string `json:"name"`
	ModelID   int64  `json:"modelId"`
	ModelName string `json:"modelName"`
	// Category is its model's device type, the site device category (1 EV charger, 2 AC
	// charger, 3 storage charger, 4 storage device, 5 home storage, 6 V2G charger).
	Category         int    `json:"category"`
	SiteID           int64  `json:"siteId"`
	SiteName         string `json:"siteName"`
	CustomerID       int64  `json:"customerId"`
	CustomerName     string `json:"customerName"`
	SoftwareVersion  string `json:"softwareVersion"`
	InstallDate      string `json:"installDate"`
	ArrivalDate      string `json:"arrivalDate"`
	MaintenanceCycle int    `json:"maintenanceCycle"`
	UnmaintainedDays int    `json:"unmaintainedDays"`
	MaintenanceDue   bool   `json:"maintenanceDue"`
	TotalRuntime     int64  `json:"totalRuntime"`
	LastRefreshAt    int64  `json:"lastRefreshAt"`
	Status           int    `json:"status"`
	AlarmStatus      int    `json:"alarmStatus"`
	Enabled          bool   `json:"enabled"`
	MaintainMode     bool   `json:"maintainMode"`
	// SecurityProfile is the least its connections must prove (security.go); HasKey tells
	// whether it has an authorization key (never the key).
	SecurityProfile int  `json:"securityProfile"`
	HasKey          bool `json:"hasKey"`
	// Protocol is the OCPP version its charger is admitted with (protocol.go): "" (auto: the
	// newest both sides speak), "ocpp1.6" or "ocpp2.0.1". The live connection's is the runtime's.
	Protocol  string   `json:"protocol"`
	Images    []string `json:"images"`
	CreatedAt int64    `json:"createdAt"`
	UpdatedAt int64    `json:"updatedAt"`
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
	hashKey  KeyHasher // the fleet's (SetKeyHasher)
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
	d.created_at, d.updated_at, d.security_profile, d.auth_key_hash <> '', d.ocpp_protocol, m.device_type`

func scan(r db.Scanner) (Device, error) {
	var d Device
	var lastMaintained int64
	var enabled, maintain int
	var images string
	err := r.Scan(&d.ID, &d.SN, &d.Name, &d.ModelID, &d.ModelName, &d.SiteID, &d.SiteName, &d.CustomerID, &d.CustomerName, &d.SoftwareVersion,
		&d.InstallDate, &d.ArrivalDate, &d.MaintenanceCycle, &lastMaintained, &d.TotalRuntime, &d.LastRefreshAt, &d.Status, &d.AlarmStatus,
		&enabled, &maintain, &images, &d.CreatedAt, &d.UpdatedAt, &d.SecurityProfile, &d.HasKey, &d.Protocol, &d.Category)
	d.Enabled, d.MaintainMode = enabled == 1, maintain == 1
	d.Images = []string{}
	_ = json.Unmarshal([]byte(images), &d.Images)
	d.UnmaintainedDays = int((time.Now().UnixMilli() - max(lastMaintained, d.CreatedAt)) / (24 * time.Hour).Milliseconds())
	d.MaintenanceDue = d.MaintenanceCycle > 0 && d.UnmaintainedDays >= d.MaintenanceCycle
	return d, err
}

func scoped(p *access.Principal) *db.Query {
	q := &db.Query{From: from}
	cond, args := p.Scope.SiteCond("d.customer_id", "d.site_id")
	return q.And(cond, args...)
}

// Get returns a device in p's scope.
func (s *Service) Get(ctx context.Context, p *access.Principal, id int64) (Device, error) {
	return s.get(ctx, s.db, p, id)
}

func (s *Service) get(ctx context.Context, q db.Querier, p *access.Principal, id int64) (Device, error) {
	d, err := db.One(ctx, q, scoped(p).And("d.id = ?", id), columns, scan, apperr.ErrNotFound)
	return d, kit.Wrap("device", "get", err)
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

// MaxMaintenanceCycle bounds the maintenance cycle, in days (ten years).
const MaxMaintenanceCycle = 3650

func checkSN(sn string) error {
	if !ValidSN(sn) {
		return apperr.InvalidField("sn", "err.sn_format")
	}
	return nil
}

// normalise trims the input and checks it, one check per field.
func (in *Input) normalise() error {
	in.SN, in.Name = strings.TrimSpace(in.SN), strings.TrimSpace(in.Name)
	if in.Images == nil {
		in.Images = []string{}
	}
	return kit.First(
		checkSN(in.SN),
		kit.Required("name", in.Name, 64),
		kit.ID("modelId", in.ModelID),
		kit.ID("siteId", in.SiteID),
		kit.Date("installDate", in.InstallDate),
		kit.Date("arrivalDate", in.ArrivalDate),
		kit.Range("maintenanceCycle", in.MaintenanceCycle, 0, MaxMaintenanceCycle),
		kit.MaxBytes("softwareVersion", in.SoftwareVersion, 64),
		kit.Count("images", in.Images, 10),
	)
}

// siteCustomer returns the customer of a site the caller may use, checking the device may use
// the model there: a platform model or one of that customer (docs/decisions.md#device-models).
func (s *Service) siteCustomer(ctx context.Context, q db.Querier, p *access.Principal, siteID, modelID int64) (int64, error) {
	var customerID int64
	err := q.QueryRow(ctx, `SELECT customer_id FROM site WHERE id = ?`, siteID).Scan(&customerID)
	if db.NotFound(err) || (err == nil && !p.Scope.HasSite(customerID, siteID)) {
		return 0, apperr.InvalidField("siteId", "err.invalid")
	}
	if err != nil {
		return 0, kit.Wrap("device", "site", err)
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
func checkUnique(ctx context.Context, q db.Querier, p *access.Principal, in Input) error {
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
			return kit.Wrap("device", "unique "+f.column, err)
		case p.Scope.HasSite(customerID, siteID):
			return apperr.New(apperr.Conflict, f.taken)
		default:
			return apperr.InvalidField(f.field, f.unusable)
		}
	}
	return nil
}

// The unique keys of a device (internal/db/migrations/0002_organisation.sql).
const (
	snKey   = "device_sn_key"
	nameKey = "device_name_key"
)

// uniqueError maps a unique-key clash that the checks before the write could not see (a device
// added at the same moment) to the neutral refusal of its field, by the key's name.
func uniqueError(err error) error {
	switch name, _ := kit.Clash(err); name {
	case snKey:
		return apperr.InvalidField("sn", "err.sn_unusable")
	case nameKey:
		return apperr.InvalidField("name", "err.device_name_unusable")
	}
	return err
}

// Add registers a device at a site in p's scope. The live fleet is told (a connection of its
// SN waiting as Pending becomes the device's: docs/gateway.md, "Admission").
func (s *Service) Add(ctx context.Context, p *access.Principal, in Input) (int64, error) {
	in.ID = 0
	if err := in.normalise(); err != nil {
		return 0, err
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		id, err = s.insert(ctx, tx, p, in)
		return err
	})
	if err != nil {
		return 0, kit.Wrap("device", "add", err)
	}
	s.changed(ctx, id)
	return id, nil
}

func (s *Service) insert(ctx context.Context, tx *db.Tx, p *access.Principal, in Input) (int64, error) {
	customerID, err := s.siteCustomer(ctx, tx, p, in.SiteID, in.ModelID)
	if err != nil {
		return 0, err
	}
	if err := checkUnique(ctx, tx, p, in); err != nil {
		return 0, err
	}
	images, _ := json.Marshal(in.Images)
	now := db.NowMS()
	id, err := db.InsertID(ctx, tx, `INSERT INTO device (sn, name, model_id, site_id, customer_id, software_version, install_date, arrival_date,
		maintenance_cycle, last_maintained_at, images, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
		in.SN, in.Name, in.ModelID, in.SiteID, customerID, in.SoftwareVersion, in.InstallDate, in.ArrivalDate, in.MaintenanceCycle, now, string(images), now, now)
	if err != nil {
		return 0, kit.Wrap("device", "insert", uniqueError(err))
	}
	// A device that was waiting as pending is now known.
	if _, err := tx.Exec(ctx, `DELETE FROM device_pending WHERE sn = ?`, in.SN); err != nil {
		return 0, kit.Wrap("device", "forget pending", err)
	}
	return id, nil
}

// Update changes a device in p's scope; its new site must be in scope too.
func (s *Service) Update(ctx context.Context, p *access.Principal, in Input) error {
	if err := in.normalise(); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		old, err := s.get(ctx, tx, p, in.ID)
		if err != nil {
			return err
		}
		if old.SN != in.SN {
			return apperr.InvalidField("sn", "err.invalid") // the SN is the device's identity on the wire
		}
		customerID, err := s.siteCustomer(ctx, tx, p, in.SiteID, in.ModelID)
		if err != nil {
			return err
		}
		if err := checkUnique(ctx, tx, p, in); err != nil {
			return err
		}
		images, _ := json.Marshal(in.Images)
		_, err = tx.Exec(ctx, `UPDATE device SET name = ?, model_id = ?, site_id = ?, customer_id = ?, software_version = ?, install_date = ?,
			arrival_date = ?, maintenance_cycle = ?, images = ?, updated_at = ? WHERE id = ?`, in.Name, in.ModelID, in.SiteID, customerID,
			in.SoftwareVersion, in.InstallDate, in.ArrivalDate, in.MaintenanceCycle, string(images), db.NowMS(), in.ID)
		return uniqueError(err)
	})
	return kit.Wrap("device", "update", err)
}

// ref is a device a batch acts on, as it was before the batch.
type ref struct {
	id      int64
	sn      string
	enabled bool
}

// batch runs one scoped statement over the devices ids (Set empty: a delete) in a transaction:
// every one in p's scope, or nothing changes and the answer is not found. It answers the
// devices as they were, for the live fleet to be told once the change is committed.
func (s *Service) batch(ctx context.Context, p *access.Principal, action string, ids kit.IDs, set string, args ...any) ([]ref, error) {
	cond, condArgs := p.Scope.SiteCond("customer_id", "site_id")
	var refs []ref
	b := kit.Batch{Table: "device", Set: set, SetArgs: args, Scope: cond, ScopeArgs: condArgs,
		Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
			var err error
			refs, err = db.All(ctx, tx, (&db.Query{From: "device"}).And("id IN ("+ids.In()+")", ids.Args()...).And(cond, condArgs...),
				"id, sn, enabled", "id", len(ids), 0, func(r db.Scanner) (ref, error) {
					var d ref
					var enabled int
					err := r.Scan(&d.id, &d.sn, &enabled)
					d.enabled = enabled == 1
					return d, err
				})
			return err
		}}
	if err := b.Run(ctx, s.db, ids); err != nil {
		return nil, kit.Wrap("device", action, err)
	}
	return refs, nil
}

// SetEnabled enables or disables devices, all of them or none. A disabled device shows
// Disabled and the gateway drops and refuses its connection; an enabled one shows Offline
// until it connects. A device already so keeps its updated time and is not reported.
func (s *Service) SetEnabled(ctx context.Context, p *access.Principal, ids kit.IDs, enabled bool) error {
	flag := db.BoolInt(enabled)
	refs, err := s.batch(ctx, p, "set enabled", ids, `enabled = ?, updated_at = CASE WHEN enabled = ? THEN updated_at ELSE ? END`,
		flag, flag, db.NowMS())
	for _, d := range refs {
		if d.enabled == enabled {
			continue
		}
		if !enabled {
			s.gone(d.sn)
		}
		s.changed(ctx, d.id)
	}
	return err
}

// SetMaintainMode puts devices into maintenance mode (status Maintain) or takes them out, all
// of them or none.
func (s *Service) SetMaintainMode(ctx context.Context, p *access.Principal, ids kit.IDs, on bool) error {
	refs, err := s.batch(ctx, p, "set maintain mode", ids, `maintain_mode = ?, updated_at = ?`, db.BoolInt(on), db.NowMS())
	for _, d := range refs {
		s.changed(ctx, d.id)
	}
	return err
}

// Maintained records a maintenance of devices, all of them or none: it ends maintenance mode
// and resets the unmaintained period.
func (s *Service) Maintained(ctx context.Context, p *access.Principal, ids kit.IDs) error {
	now := db.NowMS()
	refs, err := s.batch(ctx, p, "maintained", ids, `maintain_mode = ?, last_maintained_at = ?, updated_at = ?`, db.BoolInt(false), now, now)
	for _, d := range refs {
		s.changed(ctx, d.id)
	}
	return err
}

// Delete removes devices in p's scope, all of them or none; the gateway forgets them.
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids kit.IDs) error {
	refs, err := s.batch(ctx, p, "delete", ids, "")
	for _, d := range refs {
		s.gone(d.sn)
	}
	return err
}
