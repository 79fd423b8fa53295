package access

import "context"

// Role data-authorisation settings (docs/decisions.md#levels). Levels are 0-5, 0 highest.
type RoleSettings struct {
	CustomerAccess   int  `json:"customerAccess"` // 0 all, 1 own customers only, 2 assigned customers only
	SiteAccess       int  `json:"siteAccess"`     // 0 all, 1 assigned sites only
	WebSSHAccess     int  `json:"webSshAccess"`   // 0 disable, 1 only root, 2 only web admin, 3 only web engineer
	WebSSHLevel      int  `json:"webSshLevel"`
	CfgReadLevel     int  `json:"cfgReadLevel"`
	CfgWriteLevel    int  `json:"cfgWriteLevel"`
	CfgDownloadLevel int  `json:"cfgDownloadLevel"`
	ParamLevel       int  `json:"paramLevel"`
	DocLevel         int  `json:"docLevel"`
	AttachLevel      int  `json:"attachLevel"`
	EmailAlarm       bool `json:"emailAlarm"`
	UserAccess       bool `json:"userAccess"`
}

// Principal is the signed-in caller of a request.
type Principal struct {
	UserID     int64
	UserName   string
	Root       bool
	RoleID     int64
	CustomerID int64
	SessionID  string
	CSRFToken  string
	Keys       map[string]bool
	Role       RoleSettings
	Scope      Scope
	// ReadOnly: the user's customer is read-only; its users may look but not change anything
	// beyond their own profile.
	ReadOnly bool
	// PrivacyPending: a console session whose user has not accepted the current privacy
	// policy; only the routes that read and accept it answer (docs/api.md).
	PrivacyPending bool
}

// HasAny reports whether the principal holds at least one of keys (root holds all).
func (p *Principal) HasAny(keys ...string) bool {
	if p.Root {
		return true
	}
	for _, k := range keys {
		if p.Keys[k] {
			return true
		}
	}
	return false
}

// KeyList returns the held keys (every key for root).
func (p *Principal) KeyList() []string {
	if p.Root {
		return AllKeys()
	}
	out := make([]string, 0, len(p.Keys))
	for _, k := range AllKeys() {
		if p.Keys[k] {
			out = append(out, k)
		}
	}
	return out
}

// CanReadLevel reports whether a user whose level is userLevel may see an item of itemLevel:
// 0 is the highest level, and a user at L may use items at L or numerically higher.
func CanReadLevel(userLevel, itemLevel int) bool { return itemLevel >= userLevel }

type principalKey struct{}

// WithPrincipal stores p in ctx.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the principal of the request, or nil when there is none.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
