package ingest

import (
	"fmt"
	"unicode/utf8"

	"chargeops/internal/secret"
)

// LogRow is one protocol-log row.
type LogRow struct {
	SN   string
	Type int
	Data string
	At   int64 // unix ms; 0 means now
}

// MaxLogData bounds what a protocol-log row keeps of one frame (a charger may send up to the
// read limit, 1 MiB); a longer frame is cut and a marker gives its full length.
const MaxLogData = 64 << 10

// logData is what a row keeps of a frame: credentials masked in both directions (a
// ChangeConfiguration or a GetConfiguration answer carries the AuthorizationKey), then cut
// to MaxLogData. Masking comes first so that a cut never leaves a key readable.
func logData(data string) string {
	size := len(data)
	data = secret.MaskString(data)
	if len(data) <= MaxLogData {
		return data
	}
	cut := MaxLogData
	for cut > 0 && !utf8.RuneStart(data[cut]) {
		cut--
	}
	return data[:cut] + fmt.Sprintf(" …[cut: %d bytes in all]", size)
}
