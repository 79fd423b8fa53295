package xlsxin_test

import (
	"errors"
	"testing"

	"chargeops/internal/apperr"
	"chargeops/internal/i18n"
	"chargeops/internal/xlsxin"
)

func key(err error) string {
	if e, ok := apperr.As(err); ok {
		return e.Key
	}
	return ""
}

func TestCheckSize(t *testing.T) {
	t.Run("no file is refused as no file", func(t *testing.T) {
		if got := key(xlsxin.CheckSize(nil, 4)); got != "err.import_no_file" {
			t.Errorf("key %q", got)
		}
	})
	t.Run("a file over the limit is refused as too large", func(t *testing.T) {
		if got := key(xlsxin.CheckSize([]byte("12345"), 4)); got != "err.import_too_large" {
			t.Errorf("key %q", got)
		}
	})
	t.Run("a file at the limit passes", func(t *testing.T) {
		if err := xlsxin.CheckSize([]byte("1234"), 4); err != nil {
			t.Errorf("refused: %v", err)
		}
	})
	t.Run("an empty sheet is its own error", func(t *testing.T) {
		if got := key(xlsxin.Empty()); got != "err.import_empty" {
			t.Errorf("key %q", got)
		}
	})
}

func TestReasonAndHeader(t *testing.T) {
	t.Run("an application error's reason is its localised message", func(t *testing.T) {
		if got := xlsxin.Reason(i18n.EnUS, apperr.New(apperr.Invalid, "err.import_empty")); got != "The imported data is empty" {
			t.Errorf("reason %q", got)
		}
	})
	t.Run("another error's reason is its text", func(t *testing.T) {
		if got := xlsxin.Reason(i18n.EnUS, errors.New("disk on fire")); got != "disk on fire" {
			t.Errorf("reason %q", got)
		}
	})
	t.Run("the header is localised", func(t *testing.T) {
		h := xlsxin.Header(i18n.ZhCN, []string{"err.import_empty", "err.import_no_file"})
		if len(h) != 2 || h[0] != "导入数据为空" || h[1] != "请选择要导入的文件" {
			t.Errorf("Header: %v", h)
		}
	})
}
