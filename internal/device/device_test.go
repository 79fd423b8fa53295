package device_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/device"
	"chargeops/internal/fleet/fleettest"
	"chargeops/internal/kit"
	"chargeops/internal/testutil"
)

// notes records what the live fleet is told.
type notes struct {
	mu      sync.Mutex
	changed []int64
	gone    []string
}

func (n *notes) DeviceChanged(_ context.Context, id int64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.changed = append(n.changed, id)
}

func (n *notes) DeviceGone(sn string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.gone = append(n.gone, sn)
}

func (n *notes) take() (changed []int64, gone []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	changed, gone = n.changed, n.gone
	n.changed, n.gone = nil, nil
	return changed, gone
}

type flags struct{ enabled, maintain int }

func flagsOf(t *testing.T, d *db.DB, id int64) flags {
	t.Helper()
	var f flags
	if err := d.QueryRow(context.Background(), `SELECT enabled, maintain_mode FROM device WHERE id = ?`, id).Scan(&f.enabled, &f.maintain); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestBatchActions(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		a1 := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "BAT-A1")
		a2 := fleettest.Device(t, d, o, o.CustomerA, o.SiteA, "BAT-A2")
		b1 := fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "BAT-B1")
		svc := device.NewService(d)
		n := &notes{}
		svc.SetNotifier(n)
		callerA := testutil.Customers(o.CustomerA)

		t.Run("disabling devices in scope changes them all and tells the fleet after", func(t *testing.T) {
			if err := svc.SetEnabled(ctx, callerA, kit.IDs{a1, a2}, false); err != nil {
				t.Fatal(err)
			}
			if f1, f2 := flagsOf(t, d, a1), flagsOf(t, d, a2); f1.enabled != 0 || f2.enabled != 0 {
				t.Fatalf("enabled %d, %d; want both 0", f1.enabled, f2.enabled)
			}
			changed, gone := n.take()
			slices.Sort(gone)
			if len(changed) != 2 || !slices.Equal(gone, []string{"BAT-A1", "BAT-A2"}) {
				t.Fatalf("told changed %v, gone %v", changed, gone)
			}
		})
		t.Run("a device already so is not reported again", func(t *testing.T) {
			if err := svc.SetEnabled(ctx, callerA, kit.IDs{a1}, false); err != nil {
				t.Fatal(err)
			}
			if changed, gone := n.take(); len(changed)+len(gone) != 0 {
				t.Fatalf("told changed %v, gone %v for no change", changed, gone)
			}
		})
		t.Run("one device of another customer: not found, nothing changed, nobody told", func(t *testing.T) {
			err := svc.SetEnabled(ctx, callerA, kit.IDs{a1, b1}, true)
			if !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if f := flagsOf(t, d, a1); f.enabled != 0 {
				t.Fatal("the device in scope was enabled: the batch was half-applied")
			}
			if changed, gone := n.take(); len(changed)+len(gone) != 0 {
				t.Fatalf("told changed %v, gone %v for a refused batch", changed, gone)
			}
		})
		t.Run("maintenance mode is all or nothing", func(t *testing.T) {
			if err := svc.SetMaintainMode(ctx, callerA, kit.IDs{a2, 999999}, true); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if f := flagsOf(t, d, a2); f.maintain != 0 {
				t.Fatal("maintenance mode set on part of the batch")
			}
			if err := svc.SetMaintainMode(ctx, callerA, kit.IDs{a1, a2, a2}, true); err != nil {
				t.Fatalf("a batch naming a device twice: %v", err)
			}
			if f := flagsOf(t, d, a2); f.maintain != 1 {
				t.Fatal("maintenance mode not set")
			}
			n.take()
		})
		t.Run("a recorded maintenance ends maintenance mode, all or nothing", func(t *testing.T) {
			if err := svc.Maintained(ctx, callerA, kit.IDs{a1, b1}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			if f := flagsOf(t, d, a1); f.maintain != 1 {
				t.Fatal("maintenance recorded on part of the batch")
			}
			if err := svc.Maintained(ctx, callerA, kit.IDs{a1, a2}); err != nil {
				t.Fatal(err)
			}
			if f := flagsOf(t, d, a1); f.maintain != 0 {
				t.Fatal("maintenance mode still on")
			}
			n.take()
		})
		t.Run("deleting with one device out of scope deletes none", func(t *testing.T) {
			if err := svc.Delete(ctx, callerA, kit.IDs{a1, a2, b1}); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
			for _, id := range []int64{a1, a2, b1} {
				if _, err := svc.Get(ctx, testutil.Root(), id); err != nil {
					t.Fatalf("device %d: %v", id, err)
				}
			}
			if _, gone := n.take(); len(gone) != 0 {
				t.Fatalf("told gone %v", gone)
			}
		})
		t.Run("deleting devices in scope removes them and the fleet forgets them", func(t *testing.T) {
			if err := svc.Delete(ctx, callerA, kit.IDs{a1, a2}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Get(ctx, callerA, a1); !apperr.IsNotFound(err) {
				t.Fatalf("deleted device: %v", err)
			}
			if _, gone := n.take(); len(gone) != 2 {
				t.Fatalf("told gone %v", gone)
			}
		})
		t.Run("an empty batch is refused naming ids", func(t *testing.T) {
			err := svc.Delete(ctx, callerA, nil)
			if e, ok := apperr.As(err); !ok || e.Args["field"] != "ids" {
				t.Fatalf("got %v", err)
			}
		})
	})
}

func TestScope(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		b1 := fleettest.Device(t, d, o, o.CustomerB, o.SiteB, "SCOPE-B1")
		svc := device.NewService(d)
		callerA := testutil.Customers(o.CustomerA)

		t.Run("a caller of another customer does not find the device", func(t *testing.T) {
			if _, err := svc.Get(ctx, callerA, b1); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
		})
		t.Run("nor changes it", func(t *testing.T) {
			in := device.Input{ID: b1, SN: "SCOPE-B1", Name: "Taken over", ModelID: o.ModelID, SiteID: o.SiteA}
			if err := svc.Update(ctx, callerA, in); !apperr.IsNotFound(err) {
				t.Fatalf("got %v, want not found", err)
			}
		})
		t.Run("nor adds a device at its site", func(t *testing.T) {
			in := device.Input{SN: "SCOPE-NEW", Name: "New", ModelID: o.ModelID, SiteID: o.SiteB}
			_, err := svc.Add(ctx, callerA, in)
			if e, ok := apperr.As(err); !ok || e.Args["field"] != "siteId" {
				t.Fatalf("got %v, want siteId refused", err)
			}
		})
		t.Run("nor learns that its SN is taken", func(t *testing.T) {
			in := device.Input{SN: "SCOPE-B1", Name: "Mine", ModelID: o.ModelID, SiteID: o.SiteA}
			_, err := svc.Add(ctx, callerA, in)
			if e, ok := apperr.As(err); !ok || e.Key != "err.sn_unusable" || e.Args["field"] != "sn" {
				t.Fatalf("got %v, want the neutral refusal of sn", err)
			}
		})
		t.Run("the list holds only the caller's devices", func(t *testing.T) {
			l, err := svc.List(ctx, callerA, device.ListFilter{})
			if err != nil || l.Total != 0 {
				t.Fatalf("list %+v, %v", l, err)
			}
		})
	})
}

func TestValidationNamesItsField(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := fleettest.Seed(t, d)
		svc := device.NewService(d)
		root := testutil.Root()
		valid := func() device.Input {
			return device.Input{SN: "VAL-0001", Name: "Valid", ModelID: o.ModelID, SiteID: o.SiteA, InstallDate: "2024-02-29"}
		}
		for _, c := range []struct {
			name, field, key string
			change           func(in *device.Input)
		}{
			{"an SN with a blank", "sn", "err.sn_format", func(in *device.Input) { in.SN = "AB 12" }},
			{"a short SN", "sn", "err.sn_format", func(in *device.Input) { in.SN = "AB1" }},
			{"no name", "name", "err.required", func(in *device.Input) { in.Name = "  " }},
			{"a name of 65 characters", "name", "err.required", func(in *device.Input) { in.Name = string(make([]rune, 65)) }},
			{"no model", "modelId", "err.required", func(in *device.Input) { in.ModelID = 0 }},
			{"no site", "siteId", "err.required", func(in *device.Input) { in.SiteID = 0 }},
			{"an install date that does not exist", "installDate", "err.invalid", func(in *device.Input) { in.InstallDate = "2023-02-29" }},
			{"an arrival date in another format", "arrivalDate", "err.invalid", func(in *device.Input) { in.ArrivalDate = "29/02/2024" }},
			{"a negative maintenance cycle", "maintenanceCycle", "err.invalid", func(in *device.Input) { in.MaintenanceCycle = -1 }},
			{"a maintenance cycle over ten years", "maintenanceCycle", "err.invalid", func(in *device.Input) { in.MaintenanceCycle = device.MaxMaintenanceCycle + 1 }},
			{"a long software version", "softwareVersion", "err.invalid", func(in *device.Input) { in.SoftwareVersion = string(make([]byte, 65)) }},
			{"eleven images", "images", "err.invalid", func(in *device.Input) { in.Images = make([]string, 11) }},
			{"a model of another customer", "", "err.model_not_selectable", func(in *device.Input) { in.ModelID = 999999 }},
		} {
			t.Run(c.name, func(t *testing.T) {
				in := valid()
				c.change(&in)
				_, err := svc.Add(ctx, root, in)
				e, ok := apperr.As(err)
				if !ok || e.Key != c.key || (c.field != "" && e.Args["field"] != c.field) {
					t.Fatalf("got %v, want %s naming %q", err, c.key, c.field)
				}
			})
		}
		t.Run("a valid device is added", func(t *testing.T) {
			if _, err := svc.Add(ctx, root, valid()); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("a name another device has is taken", func(t *testing.T) {
			in := valid()
			in.SN = "VAL-0002"
			_, err := svc.Add(ctx, root, in)
			if e, ok := apperr.As(err); !ok || e.Key != "err.device_name_taken" {
				t.Fatalf("got %v, want err.device_name_taken", err)
			}
		})
	})
}
