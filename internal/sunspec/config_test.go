package sunspec

import (
	"testing"

	"chargeops/internal/ess"
)

func itemMap(items []ess.Item) map[string]ess.Item {
	m := map[string]ess.Item{}
	for _, it := range items {
		m[it.Key] = it
	}
	return m
}

func TestConfig(t *testing.T) {
	s := startSim(t, at(12, 0))
	c := dial(t, s)

	t.Run("getConfig lists every item", func(t *testing.T) {
		status, msg, items, _ := apply(t, c, ess.CmdGetConfig, ess.Params{})
		if status != ess.StatusAccepted {
			t.Fatalf("status %s %s", status, msg)
		}
		got := itemMap(items)
		for key, want := range map[string]ess.Item{
			"Mode":             {Key: "Mode", Value: "0"},
			"PeakLimitW":       {Key: "PeakLimitW", Value: "25000"},
			"BackupReserveSoC": {Key: "BackupReserveSoC", Value: "30"},
			"MinSoC":           {Key: "MinSoC", Value: "10"},
			"MaxSoC":           {Key: "MaxSoC", Value: "95"},
			"WHRtg":            {Key: "WHRtg", Value: "100000", Readonly: true},
			"WChaRteMax":       {Key: "WChaRteMax", Value: "50000", Readonly: true},
			"WMaxRtg":          {Key: "WMaxRtg", Value: "50000", Readonly: true},
		} {
			if got[key] != want {
				t.Errorf("%s = %+v, want %+v", key, got[key], want)
			}
		}
	})
	t.Run("getConfig by key", func(t *testing.T) {
		_, _, items, _ := apply(t, c, ess.CmdGetConfig, ess.Params{Keys: []string{"MinSoC"}})
		if len(items) != 1 || items[0] != (ess.Item{Key: "MinSoC", Value: "10"}) {
			t.Errorf("items %+v", items)
		}
	})
	t.Run("getConfig unknown key", func(t *testing.T) {
		if status, _, _, _ := apply(t, c, ess.CmdGetConfig, ess.Params{Keys: []string{"Turbo"}}); status != ess.StatusNotSupported {
			t.Errorf("status %s, want NotSupported", status)
		}
	})
	t.Run("setConfig writes and reads back", func(t *testing.T) {
		status, msg, items, _ := apply(t, c, ess.CmdSetConfig, ess.Params{Items: []ess.Item{
			{Key: "MinSoC", Value: "20"}, {Key: "MaxSoC", Value: "90.5"}, {Key: "PeakLimitW", Value: "18000"},
		}})
		if status != ess.StatusAccepted {
			t.Fatalf("status %s %s", status, msg)
		}
		got := itemMap(items)
		if got["MinSoC"].Value != "20" || got["MaxSoC"].Value != "90.5" || got["PeakLimitW"].Value != "18000" {
			t.Errorf("read back %+v", items)
		}
		_, _, items, _ = apply(t, c, ess.CmdGetConfig, ess.Params{Keys: []string{"MaxSoC"}})
		if items[0].Value != "90.5" {
			t.Errorf("getConfig after setConfig: %+v", items)
		}
	})
	t.Run("setConfig mode by name", func(t *testing.T) {
		status, _, items, _ := apply(t, c, ess.CmdSetConfig, ess.Params{Items: []ess.Item{{Key: "Mode", Value: ess.ModeBackup}}})
		if status != ess.StatusAccepted || items[0].Value != "2" {
			t.Errorf("status %s items %+v", status, items)
		}
		if v, _ := read(t, c); v[ess.PCSMode] != ess.ModeBackup {
			t.Errorf("mode %v", v[ess.PCSMode])
		}
	})
	for _, tc := range []struct {
		name   string
		items  []ess.Item
		status string
	}{
		{"unknown key", []ess.Item{{Key: "Turbo", Value: "1"}}, ess.StatusNotSupported},
		{"unknown key beside a good one", []ess.Item{{Key: "MinSoC", Value: "15"}, {Key: "Turbo", Value: "1"}}, ess.StatusNotSupported},
		{"SoC above 100", []ess.Item{{Key: "MaxSoC", Value: "120"}}, ess.StatusRejected},
		{"negative peak limit", []ess.Item{{Key: "PeakLimitW", Value: "-1"}}, ess.StatusRejected},
		{"mode out of range", []ess.Item{{Key: "Mode", Value: "7"}}, ess.StatusRejected},
		{"MinSoC not below MaxSoC", []ess.Item{{Key: "MinSoC", Value: "95"}}, ess.StatusRejected},
		{"not a number", []ess.Item{{Key: "MinSoC", Value: "ten"}}, ess.StatusRejected},
		{"read-only key", []ess.Item{{Key: "WHRtg", Value: "1"}}, ess.StatusRejected},
		{"no items", nil, ess.StatusRejected},
	} {
		t.Run("setConfig "+tc.name+", nothing written", func(t *testing.T) {
			before := s.Writes()
			status, msg, _, _ := apply(t, c, ess.CmdSetConfig, ess.Params{Items: tc.items})
			if status != tc.status || msg == "" {
				t.Errorf("status %s %q, want %s with a message", status, msg, tc.status)
			}
			if s.Writes() != before {
				t.Errorf("%d writes, want none", s.Writes()-before)
			}
		})
	}
}
