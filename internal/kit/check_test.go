package kit

import (
	"strings"
	"testing"

	"chargeops/internal/testutil"
)

// Each row: the check with its input, the field the failure must name and its message key
// ("" field: the check passes).
func TestChecks(t *testing.T) {
	for _, c := range []struct {
		name, field, key string
		err              error
	}{
		{"a required name passes", "", "", Required("name", "Depot", 100)},
		{"an empty required name names its field", "name", "err.required", Required("name", "", 100)},
		{"a required name of max characters passes (CJK counted as characters)", "", "", Required("name", strings.Repeat("站", 100), 100)},
		{"a required name over max characters is refused", "name", "err.required", Required("name", strings.Repeat("a", 101), 100)},
		{"an empty optional text passes", "", "", Text("description", "", 10)},
		{"an optional text over max characters names its field", "description", "err.invalid", Text("description", strings.Repeat("a", 11), 10)},
		{"an optional text with NUL is refused", "description", "err.invalid", Text("description", "a\x00b", 10)},
		{"bytes at the limit pass", "", "", MaxBytes("contactPhone", strings.Repeat("1", 32), 32)},
		{"bytes over the limit name their field", "contactPhone", "err.invalid", MaxBytes("contactPhone", strings.Repeat("1", 33), 32)},
		{"a code passes", "", "", Code("code", "SZ-01", 32)},
		{"an empty code is refused", "code", "err.invalid", Code("code", "", 32)},
		{"a code with a blank is refused", "code", "err.invalid", Code("code", "SZ 01", 32)},
		{"a code with a slash is refused", "code", "err.invalid", Code("code", "SZ/01", 32)},
		{"a code over max bytes is refused", "code", "err.invalid", Code("code", strings.Repeat("a", 33), 32)},
		{"a reference passes", "", "", ID("customerId", 7)},
		{"a missing reference names its field", "customerId", "err.required", ID("customerId", 0)},
		{"a list within its limit passes", "", "", Count("receivers", []int64{1, 2}, 2)},
		{"a list over its limit names its field", "receivers", "err.invalid", Count("receivers", []int64{1, 2, 3}, 2)},
		{"a value at the low end of its range passes", "", "", Range("sort", 0, 0, 10)},
		{"a value at the high end of its range passes", "", "", Range("sort", 10, 0, 10)},
		{"a value below its range names its field", "sort", "err.invalid", Range("sort", -1, 0, 10)},
		{"a value above its range names its field", "sort", "err.invalid", Range("sort", 11, 0, 10)},
		{"a range of one value passes that value", "", "", Range("level", 3, 3, 3)},
		{"a value at its lower bound passes", "", "", AtLeast("maxSites", 0, 0)},
		{"a large value passes a lower bound", "", "", AtLeast("maxSites", 1<<40, 0)},
		{"a value under its lower bound names its field", "maxSites", "err.invalid", AtLeast("maxSites", -1, 0)},
		{"an allowed value passes", "", "", OneOf("status", 1, 0, 1)},
		{"another value names its field", "status", "err.invalid", OneOf("status", 2, 0, 1)},
		{"an empty date passes", "", "", Date("buildDate", "")},
		{"a date passes", "", "", Date("buildDate", "2024-02-29")},
		{"a date that does not exist is refused", "buildDate", "err.invalid", Date("buildDate", "2023-02-29")},
		{"a month 13 is refused", "buildDate", "err.invalid", Date("buildDate", "2024-13-01")},
		{"a date with a time is refused", "buildDate", "err.invalid", Date("buildDate", "2024-01-01 10:00")},
		{"a date without leading zeros is refused", "buildDate", "err.invalid", Date("buildDate", "2024-1-1")},
		{"a date with slashes is refused", "buildDate", "err.invalid", Date("buildDate", "2024/01/01")},
		{"an open time range passes", "", "", TimeRange(0, 0)},
		{"a range with only a start passes", "", "", TimeRange(1000, 0)},
		{"a range ending after its start passes", "", "", TimeRange(1000, 2000)},
		{"a negative start names startTime", "startTime", "err.invalid", TimeRange(-1, 0)},
		{"an end at the start names endTime", "endTime", "err.time_range", TimeRange(1000, 1000)},
		{"an end before the start names endTime", "endTime", "err.time_range", TimeRange(2000, 1000)},
		{"a negative end names endTime", "endTime", "err.time_range", TimeRange(0, -5)},
		{"First answers the first failure", "code", "err.invalid", First(nil, Code("code", "", 32), Required("name", "", 10))},
		{"First passes when all pass", "", "", First(nil, nil)},
	} {
		t.Run(c.name, func(t *testing.T) { testutil.WantField(t, c.err, c.field, c.key) })
	}
}

func TestIDs(t *testing.T) {
	many := make(IDs, MaxIDs+1)
	for i := range many {
		many[i] = int64(i + 1)
	}
	for _, c := range []struct {
		name, key string
		err       error
	}{
		{"one id passes", "", IDs{1}.Check()},
		{"MaxIDs ids pass", "", many[:MaxIDs].Check()},
		{"no ids are required", "err.required", IDs{}.Check()},
		{"more than MaxIDs are refused", "err.required", many.Check()},
		{"a zero id is refused", "err.required", IDs{3, 0}.Check()},
		{"a negative id is refused", "err.required", IDs{-2}.Check()},
		{"a lower limit of a package passes within it", "", IDs{1, 2}.CheckMax(2)},
		{"a lower limit of a package refuses more", "err.invalid", IDs{1, 2, 3}.CheckMax(2)},
		{"a lower limit refuses none", "err.invalid", IDs(nil).CheckMax(2)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.key == "" {
				testutil.WantField(t, c.err, "", "")
				return
			}
			testutil.WantField(t, c.err, "ids", c.key)
		})
	}
	t.Run("Distinct drops repeats and sorts", func(t *testing.T) {
		got := IDs{3, 1, 3, 2, 1}.Distinct()
		if len(got) != 3 || got[0] != 1 || got[1] != 2 || got[2] != 3 {
			t.Fatalf("got %v", got)
		}
	})
}
