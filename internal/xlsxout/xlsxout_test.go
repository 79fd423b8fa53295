package xlsxout_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"chargeops/internal/xlsxout"
)

func TestCheckFormat(t *testing.T) {
	for _, c := range []struct {
		name, format string
		ok           bool
	}{
		{"empty is xlsx", "", true},
		{"xlsx", "xlsx", true},
		{"with dot and case", ".XLSX", true},
		{"csv refused", "csv", false},
		{"xls refused", "xls", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := xlsxout.CheckFormat(c.format); (err == nil) != c.ok {
				t.Errorf("CheckFormat(%q) = %v", c.format, err)
			}
		})
	}
}

func TestSheetAndTime(t *testing.T) {
	x, err := xlsxout.New("Log", []string{"A", "B"})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	hk, err := time.LoadLocation("Asia/Hong_Kong")
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Row("one", xlsxout.Time(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), hk)); err != nil {
		t.Fatal(err)
	}
	b, err := x.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("Log")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("the sheet holds the header and the row", func(t *testing.T) {
		if len(rows) != 2 || rows[0][1] != "B" {
			t.Errorf("rows %v", rows)
		}
	})
	t.Run("times are written in the given zone", func(t *testing.T) {
		if len(rows) != 2 || rows[1][1] != "2026-03-01 08:00:00" {
			t.Errorf("rows %v", rows)
		}
	})
	t.Run("time 0 is an empty cell", func(t *testing.T) {
		if xlsxout.Time(0, hk) != "" {
			t.Error("0 gave a time")
		}
	})
}
