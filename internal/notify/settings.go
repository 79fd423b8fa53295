package notify

import (
	"context"
	"fmt"
	"slices"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
)

// Reception settings (message/setting): which event kinds and levels a user receives, for
// which sites, in the console and by mail, immediately or as a digest.

// Frequencies of alarm mail.
const (
	FrequencyImmediate = "immediate"
	FrequencyDelayed   = "delayed"
)

// Bounds of the digest delay, in minutes.
const (
	MinDelayMinutes = 5
	MaxDelayMinutes = 1440
	maxSettingSites = 1000
)

// kindNames and levelNames are the fixed sets (internal/devstate): kinds offline 0, alarm 1,
// fault 2, unavailable 3; levels OA 0, MA 1, CA 2.
var (
	kindNames  = []string{"offline", "alarm", "fault", "unavailable"}
	levelNames = []string{"OA", "MA", "CA"}
)

// Setting is a user's reception setting.
type Setting struct {
	Kinds        []int   `json:"kinds"`        // event kinds received: 0 offline, 1 alarm, 2 fault, 3 unavailable
	Levels       []int   `json:"levels"`       // levels received: 0 OA, 1 MA, 2 CA
	AllSites     bool    `json:"allSites"`     // every site of the user's scope, or only SiteIDs
	SiteIDs      []int64 `json:"siteIds"`      // with allSites false
	Console      bool    `json:"console"`      // messages in the console
	Mail         bool    `json:"mail"`         // alarm mail (to a site's notification receivers whose role has email-alarm receipt)
	Frequency    string  `json:"frequency"`    // immediate or delayed (one digest per delay)
	DelayMinutes int     `json:"delayMinutes"` // the digest delay, 5-1440
}

// DefaultSetting is what a user without a stored setting receives.
func DefaultSetting() Setting {
	return Setting{Kinds: []int{0, 1, 2, 3}, Levels: []int{0, 1, 2}, AllSites: true, SiteIDs: []int64{}, Console: true, Mail: true,
		Frequency: FrequencyImmediate, DelayMinutes: 30}
}

func toMask(vs []int) int {
	m := 0
	for _, v := range vs {
		m |= 1 << v
	}
	return m
}

func fromMask(m, n int) []int {
	out := []int{}
	for i := range n {
		if m&(1<<i) != 0 {
			out = append(out, i)
		}
	}
	return out
}

func (st Setting) kindMask() int  { return toMask(st.Kinds) }
func (st Setting) levelMask() int { return toMask(st.Levels) }

func frequencyCode(f string) int {
	if f == FrequencyDelayed {
		return 1
	}
	return 0
}

func frequencyName(c int) string {
	if c == 1 {
		return FrequencyDelayed
	}
	return FrequencyImmediate
}

var (
	errKind      = apperr.InvalidField("kinds", "err.message_kind")
	errLevel     = apperr.InvalidField("levels", "err.message_level")
	errFrequency = apperr.InvalidField("frequency", "err.message_frequency")
	errSite      = apperr.InvalidField("siteIds", "err.message_site")
)

func errDelay() *apperr.Error {
	return apperr.InvalidField("delayMinutes", "err.message_delay").With(map[string]any{"field": "delayMinutes", "min": MinDelayMinutes, "max": MaxDelayMinutes})
}

// validate checks each field against its fixed set or bounds.
func (st *Setting) validate() error {
	for _, k := range st.Kinds {
		if k < 0 || k >= len(kindNames) {
			return errKind
		}
	}
	for _, l := range st.Levels {
		if l < 0 || l >= len(levelNames) {
			return errLevel
		}
	}
	switch st.Frequency {
	case FrequencyImmediate, FrequencyDelayed:
	case "":
		st.Frequency = FrequencyImmediate
	default:
		return errFrequency
	}
	if st.DelayMinutes == 0 && st.Frequency == FrequencyImmediate {
		st.DelayMinutes = DefaultSetting().DelayMinutes
	}
	if st.DelayMinutes < MinDelayMinutes || st.DelayMinutes > MaxDelayMinutes {
		return errDelay()
	}
	if st.AllSites {
		st.SiteIDs = []int64{}
	}
	if len(st.SiteIDs) > maxSettingSites {
		return errSite
	}
	slices.Sort(st.SiteIDs)
	st.SiteIDs = slices.Compact(st.SiteIDs)
	slices.Sort(st.Kinds)
	st.Kinds = slices.Compact(st.Kinds)
	slices.Sort(st.Levels)
	st.Levels = slices.Compact(st.Levels)
	return nil
}

const (
	sqlSettingGet   = `SELECT kinds, levels, all_sites, console, mail, frequency, delay_min FROM message_setting WHERE user_id = ?`
	sqlSettingSites = `SELECT site_id FROM message_setting_site WHERE user_id = ? ORDER BY site_id`
	sqlSettingSave  = `INSERT INTO message_setting (user_id, kinds, levels, all_sites, console, mail, frequency, delay_min, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET kinds = excluded.kinds, levels = excluded.levels,
		all_sites = excluded.all_sites, console = excluded.console, mail = excluded.mail, frequency = excluded.frequency,
		delay_min = excluded.delay_min, updated_at = excluded.updated_at`
	sqlSettingSitesClear = `DELETE FROM message_setting_site WHERE user_id = ?`
	sqlSettingSiteAdd    = `INSERT INTO message_setting_site (user_id, site_id) VALUES (?, ?)`
)

// Setting returns the caller's reception setting (the defaults when none is stored).
func (s *Service) Setting(ctx context.Context, p *access.Principal) (Setting, error) {
	st := DefaultSetting()
	var kinds, levels, allSites, console, mailOn, freq int
	err := s.db.QueryRow(ctx, sqlSettingGet, p.UserID).Scan(&kinds, &levels, &allSites, &console, &mailOn, &freq, &st.DelayMinutes)
	if db.NotFound(err) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("notify: setting: %w", err)
	}
	st.Kinds, st.Levels = fromMask(kinds, len(kindNames)), fromMask(levels, len(levelNames))
	st.AllSites, st.Console, st.Mail, st.Frequency = allSites == 1, console == 1, mailOn == 1, frequencyName(freq)
	if st.SiteIDs, err = db.Column[int64](ctx, s.db, sqlSettingSites, p.UserID); err != nil {
		return st, fmt.Errorf("notify: setting sites: %w", err)
	}
	if st.SiteIDs == nil {
		st.SiteIDs = []int64{}
	}
	return st, nil
}

// SaveSetting validates and stores the caller's setting: kinds and levels from the fixed sets,
// sites only within the caller's scope, the delay within its bounds.
func (s *Service) SaveSetting(ctx context.Context, p *access.Principal, st Setting) error {
	if err := st.validate(); err != nil {
		return err
	}
	if len(st.SiteIDs) > 0 {
		cond, args := p.Scope.SiteCond("s.customer_id", "s.id")
		var n int
		q := `SELECT COUNT(*) FROM site s WHERE s.id IN (` + db.Placeholders(len(st.SiteIDs)) + `) AND ` + cond
		if err := s.db.QueryRow(ctx, q, append(db.Args(st.SiteIDs), args...)...).Scan(&n); err != nil {
			return fmt.Errorf("notify: setting sites in scope: %w", err)
		}
		if n != len(st.SiteIDs) {
			return errSite
		}
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, sqlSettingSave, p.UserID, st.kindMask(), st.levelMask(), db.BoolInt(st.AllSites), db.BoolInt(st.Console),
			db.BoolInt(st.Mail), frequencyCode(st.Frequency), st.DelayMinutes, db.NowMS()); err != nil {
			return fmt.Errorf("notify: save setting: %w", err)
		}
		if _, err := tx.Exec(ctx, sqlSettingSitesClear, p.UserID); err != nil {
			return fmt.Errorf("notify: clear setting sites: %w", err)
		}
		for _, id := range st.SiteIDs {
			if _, err := tx.Exec(ctx, sqlSettingSiteAdd, p.UserID, id); err != nil {
				return fmt.Errorf("notify: setting site: %w", err)
			}
		}
		return nil
	})
}
