package loadmgmt

import (
	"context"
	"testing"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/testutil"
)

func engineer(level int, customer int64) *access.Principal {
	p := testutil.Customers(customer)
	p.UserName = "eng"
	p.Role.ParamLevel = level
	return p
}

func TestSitePowerSettings(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		s := New(d, nil, Options{Node: "n1"})
		root := testutil.Root()

		sp, err := s.SitePower(ctx, root, o.SiteA)
		if err != nil || sp.Enabled || sp.MinA != 6 || sp.EditLevel != 1 || sp.Schedule == nil {
			t.Fatalf("defaults: %+v %v", sp, err)
		}
		ok := SitePower{SiteID: o.SiteA, Enabled: true, LimitKW: 100, MinA: 6, EditLevel: 2,
			Schedule: []Window{{From: "17:00", To: "21:00", Days: []int{1, 2, 3, 4, 5}, LimitKW: 60}}}
		bad := func(f func(*SitePower)) SitePower {
			c := ok
			c.Schedule = append([]Window{}, ok.Schedule...)
			f(&c)
			return c
		}
		fields := []struct {
			name, field, key string
			in               SitePower
		}{
			{"no limit", "limitKw", "err.required", bad(func(c *SitePower) { c.LimitKW = 0 })},
			{"both limits", "limitA", "err.invalid", bad(func(c *SitePower) { c.LimitA = 100 })},
			{"kW too small", "limitKw", "err.invalid", bad(func(c *SitePower) { c.LimitKW = 0.05 })},
			{"kW too large", "limitKw", "err.invalid", bad(func(c *SitePower) { c.LimitKW = 100001 })},
			{"A too large", "limitA", "err.invalid", bad(func(c *SitePower) { c.LimitKW, c.LimitA = 0, 10001 })},
			{"minA", "minA", "err.invalid", bad(func(c *SitePower) { c.MinA = 81 })},
			{"window from", "schedule[0].from", "err.invalid", bad(func(c *SitePower) { c.Schedule[0].From = "25:00" })},
			{"window to", "schedule[0].to", "err.invalid", bad(func(c *SitePower) { c.Schedule[0].To = "9:00" })},
			{"window day", "schedule[0].days", "err.invalid", bad(func(c *SitePower) { c.Schedule[0].Days = []int{0} })},
			{"window limit", "schedule[0].limitKw", "err.invalid", bad(func(c *SitePower) { c.Schedule[0].LimitKW = -1 })},
			{"too many windows", "schedule", "err.invalid", bad(func(c *SitePower) { c.Schedule = make([]Window, 13) })},
			{"edit level", "editLevel", "err.invalid", bad(func(c *SitePower) { c.EditLevel = 6 })},
		}
		for _, c := range fields {
			testutil.WantField(t, s.SetSitePower(ctx, root, c.in), c.field, c.key)
		}
		if err := s.SetSitePower(ctx, root, ok); err != nil {
			t.Fatal(err)
		}
		got, err := s.SitePower(ctx, root, o.SiteA)
		if err != nil || !got.Enabled || got.LimitKW != 100 || len(got.Schedule) != 1 || got.Schedule[0].LimitKW != 60 || got.UpdatedAt == 0 {
			t.Fatalf("stored: %+v %v", got, err)
		}

		// scope: another customer's caller does not see the site
		if _, err := s.SitePower(ctx, testutil.Customers(o.CustomerB), o.SiteA); !apperr.IsNotFound(err) {
			t.Fatalf("out of scope read: %v", err)
		}
		if err := s.SetSitePower(ctx, testutil.Sites(o.CustomerA, 999999), ok); !apperr.IsNotFound(err) {
			t.Fatalf("out of scope site: %v", err)
		}
		// level: the setting's edit level is 2; a role at parameter level 3 may not change it
		testutil.WantCode(t, s.SetSitePower(ctx, engineer(3, o.CustomerA), ok), apperr.NoPermission, "")
		// level 2 may, but not set a level it could not use itself
		testutil.WantField(t, s.SetSitePower(ctx, engineer(2, o.CustomerA), bad(func(c *SitePower) { c.EditLevel = 1 })), "editLevel", "err.invalid")
		if err := s.SetSitePower(ctx, engineer(2, o.CustomerA), bad(func(c *SitePower) { c.EditLevel = 3 })); err != nil {
			t.Fatal(err)
		}
	})
}

func TestDevicePowerSettings(t *testing.T) {
	testutil.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		o := seed(t, d)
		dev := addDevice(t, d, o, o.CustomerA, o.SiteA, "LM0001", true)
		s := New(d, nil, Options{Node: "n1"})
		root := testutil.Root()
		dp, err := s.DevicePower(ctx, root, dev)
		if err != nil || dp != (DevicePower{DeviceID: dev, Phases: 3, Phase: 1, MinA: 6, MaxA: 32}) {
			t.Fatalf("defaults: %+v %v", dp, err)
		}
		ok := DevicePower{DeviceID: dev, Phases: 1, Phase: 2, MinA: 6, MaxA: 16, Priority: 3}
		for _, c := range []struct {
			field string
			f     func(*DevicePower)
		}{
			{"phases", func(x *DevicePower) { x.Phases = 2 }},
			{"phase", func(x *DevicePower) { x.Phase = 4 }},
			{"minA", func(x *DevicePower) { x.MinA = -1 }},
			{"maxA", func(x *DevicePower) { x.MaxA = 5 }},
			{"maxA", func(x *DevicePower) { x.MaxA = 501 }},
			{"priority", func(x *DevicePower) { x.Priority = 11 }},
		} {
			in := ok
			c.f(&in)
			testutil.WantField(t, s.SetDevicePower(ctx, root, in), c.field, "err.invalid")
		}
		if err := s.SetDevicePower(ctx, root, ok); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.DevicePower(ctx, root, dev); got != ok {
			t.Fatalf("stored %+v", got)
		}
		if _, err := s.DevicePower(ctx, testutil.Customers(o.CustomerB), dev); !apperr.IsNotFound(err) {
			t.Fatalf("out of scope: %v", err)
		}
		testutil.WantCode(t, s.SetDevicePower(ctx, engineer(2, o.CustomerA), ok), apperr.NoPermission, "")
	})
}
