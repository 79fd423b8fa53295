package httpapi

import (
	"net/url"
	"testing"
)

func TestDecodeQuery(t *testing.T) {
	t.Parallel()
	type filter struct {
		Name   string `json:"name"`
		Status *int   `json:"status"`
		Alarm  *int   `json:"alarmStatus"`
		On     bool   `json:"on"`
		ID     int64  `json:"id"`
	}
	t.Run("optional numbers are set only when given", func(t *testing.T) {
		var f filter
		if err := decodeQuery(url.Values{"status": {"0"}, "name": {"x"}, "id": {"7"}, "on": {"true"}}, &f); err != nil {
			t.Fatal(err)
		}
		if f.Status == nil || *f.Status != 0 || f.Alarm != nil || f.Name != "x" || f.ID != 7 || !f.On {
			t.Fatalf("decoded %+v", f)
		}
	})
	t.Run("a bad optional number names its field", func(t *testing.T) {
		var f filter
		err := decodeQuery(url.Values{"alarmStatus": {"abc"}}, &f)
		if err == nil || err.Error() == "" {
			t.Fatalf("no error for a bad number: %+v", f)
		}
	})
}
