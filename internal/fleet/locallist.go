package fleet

import "context"

// The local authorization list (control types 19 and 20; docs/tokens.md): the core builds the
// list from the customer's tokens and keeps the version each charger holds; a protocol adapter
// only carries it. internal/token implements LocalLists.

// LocalListEntry is one idTag of a list; Info nil removes the idTag (a differential update).
type LocalListEntry struct {
	IDTag string
	Info  *TokenAnswer
}

// LocalList is what a SendLocalList carries: the version the charger holds after it, and the
// entries (every token for a full update, the changes for a differential one).
type LocalList struct {
	Version int64
	Full    bool
	Entries []LocalListEntry
}

// LocalLists builds local lists and keeps the version each charger holds.
type LocalLists interface {
	// Build returns the list to send dev: full, or the changes since the version dev holds
	// (a full list when that is not known). refusal is a message key when nothing may be sent
	// (the list is longer than the charger accepts, or its local list is disabled).
	Build(ctx context.Context, dev *Device, full bool) (list LocalList, refusal string, err error)
	// Held records the version dev holds: its GetLocalListVersion answer (sent false) or the
	// version of a list it accepted (sent true).
	Held(ctx context.Context, dev *Device, version int64, sent bool) error
}

// Update types of control type 19 (params.updateType): the words of OCPP 1.6 and 2.0.1 alike.
const (
	UpdateFull         = "Full"
	UpdateDifferential = "Differential"
)

// LocalListToSend is the list control type 19 sends dev with lists (nil: the gateway has
// none), or the failed outcome that ends the command before anything is sent: no lists
// ("err.not_supported"), an update type that is neither Full nor Differential (none: Full), or
// the refusal of Build.
func LocalListToSend(ctx context.Context, lists LocalLists, dev *Device, updateType string) (LocalList, *Outcome, error) {
	if lists == nil {
		return LocalList{}, &Outcome{Result: ResultFailed, Message: "err.not_supported"}, nil
	}
	var full bool
	switch updateType {
	case "", UpdateFull:
		full = true
	case UpdateDifferential:
	default:
		return LocalList{}, &Outcome{Result: ResultFailed, Message: "err.invalid_update_type"}, nil
	}
	list, refusal, err := lists.Build(ctx, dev, full)
	if err != nil || refusal == "" {
		return list, nil, err
	}
	return LocalList{}, &Outcome{Result: ResultFailed, Message: refusal}, nil
}
