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
	if got := key(xlsxin.CheckSize(nil, 4)); got != "err.import_no_file" {
		t.Errorf("empty: %q", got)
	}
	if got := key(xlsxin.CheckSize([]byte("12345"), 4)); got != "err.import_too_large" {
		t.Errorf("too large: %q", got)
	}
	if err := xlsxin.CheckSize([]byte("1234"), 4); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	if got := key(xlsxin.Empty()); got != "err.import_empty" {
		t.Errorf("Empty: %q", got)
	}
}

func TestReasonAndHeader(t *testing.T) {
	if got := xlsxin.Reason(i18n.EnUS, apperr.New(apperr.Invalid, "err.import_empty")); got != "The imported data is empty" {
		t.Errorf("application error: %q", got)
	}
	if got := xlsxin.Reason(i18n.EnUS, errors.New("disk on fire")); got != "disk on fire" {
		t.Errorf("other error: %q", got)
	}
	h := xlsxin.Header(i18n.ZhCN, []string{"err.import_empty", "err.import_no_file"})
	if len(h) != 2 || h[0] != "导入数据为空" || h[1] != "请选择要导入的文件" {
		t.Errorf("Header: %v", h)
	}
}
