// Package user owns console accounts: their profile, password, status, lock-out state and
// privacy acceptance.
package user

import (
	"context"
	"net/mail"
	"strings"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/passwd"
	"chargeops/internal/session"
)

// Status values.
const (
	Disabled = 0
	Enabled  = 1
)

// User is an account as the API shows it (never with its hash).
type User struct {
	ID             int64   `json:"id"`
	UserName       string  `json:"userName"`
	NickName       string  `json:"nickName"`
	Email          string  `json:"email"`
	Contact        string  `json:"contact"`
	Avatar         string  `json:"avatar"`
	Root           bool    `json:"root"`
	Vendor         bool    `json:"vendor"`
	RoleID         int64   `json:"roleId"`
	RoleName       string  `json:"roleName"`
	CustomerID     int64   `json:"customerId"`
	MaxSites       int     `json:"maxSites"`
	Status         int     `json:"status"`
	FailedLogins   int     `json:"failedLogins"`
	LockedUntil    int64   `json:"lockedUntil"`
	PrivacyVersion string  `json:"-"`
	Locale         string  `json:"locale"`
	CustomerIDs    []int64 `json:"customerIds,omitempty"`
	SiteIDs        []int64 `json:"siteIds,omitempty"`
	CreatedAt      int64   `json:"createdAt"`
	UpdatedAt      int64   `json:"updatedAt"`
	passwordHash   string
}

// PasswordHash is the stored argon2id string (for the sign-in check only).
func (u *User) PasswordHash() string { return u.passwordHash }

// Service reads and changes accounts.
type Service struct {
	db       *db.DB
	sessions *session.Store
	grants   Grants
}

// NewService builds the account service; grants decides which roles a caller may hand out.
func NewService(d *db.DB, s *session.Store, grants Grants) *Service {
	return &Service{db: d, sessions: s, grants: grants}
}

const userColumns = `u.id, u.user_name, u.nick_name, u.email, u.contact, u.avatar, u.root, u.vendor, COALESCE(u.role_id, 0),
	COALESCE(r.name, ''), u.customer_id, u.max_sites, u.status, u.failed_logins, u.locked_until, u.privacy_version, u.locale,
	u.created_at, u.updated_at, u.password_hash`

const selectUser = `SELECT ` + userColumns + ` FROM app_user u LEFT JOIN role r ON r.id = u.role_id `

func scanUser(row db.Scanner) (User, error) {
	var u User
	var root, vendor int
	err := row.Scan(&u.ID, &u.UserName, &u.NickName, &u.Email, &u.Contact, &u.Avatar, &root, &vendor, &u.RoleID, &u.RoleName,
		&u.CustomerID, &u.MaxSites, &u.Status, &u.FailedLogins, &u.LockedUntil, &u.PrivacyVersion, &u.Locale,
		&u.CreatedAt, &u.UpdatedAt, &u.passwordHash)
	u.Root, u.Vendor = root == 1, vendor == 1
	return u, err
}

func (s *Service) getWhere(ctx context.Context, where string, arg any) (User, error) {
	u, err := scanUser(s.db.QueryRow(ctx, selectUser+where, arg))
	if db.NotFound(err) {
		return u, apperr.ErrNotFound
	}
	return u, kit.Wrap("user", "get", err)
}

// Get returns a user by id.
func (s *Service) Get(ctx context.Context, id int64) (User, error) {
	return s.getWhere(ctx, `WHERE u.id = ?`, id)
}

// GetByName returns a user by user name.
func (s *Service) GetByName(ctx context.Context, name string) (User, error) {
	return s.getWhere(ctx, `WHERE u.user_name = ?`, name)
}

// GetByEmail returns the user with that email (emails are unique among users that have one).
func (s *Service) GetByEmail(ctx context.Context, email string) (User, error) {
	return s.getWhere(ctx, `WHERE lower(u.email) = ?`, strings.ToLower(strings.TrimSpace(email)))
}

// CreateInput holds a new account. Password is the plain new password (already decrypted).
type CreateInput struct {
	UserName   string `json:"userName"`
	Password   string `json:"-"`
	NickName   string `json:"nickName"`
	Email      string `json:"email"`
	Contact    string `json:"contact"`
	RoleID     int64  `json:"roleId"`
	CustomerID int64  `json:"customerId"`
	MaxSites   int    `json:"maxSites"`
	Root       bool   `json:"-"`
}

// ValidEmail reports whether s is a plain address.
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address == s && len(s) <= 254
}

// MaxText bounds the nickname and the contact, in bytes.
const MaxText = 64

func checkUserName(name string) error {
	if !passwd.ValidUserName(name) {
		return apperr.InvalidField("userName", "err.username_rule")
	}
	return nil
}

func checkEmail(email string) error {
	if email != "" && !ValidEmail(email) {
		return apperr.InvalidField("email", "err.invalid")
	}
	return nil
}

// checkRole: every account but root's holds a role.
func checkRole(root bool, roleID int64) error {
	if !root && roleID == 0 {
		return apperr.InvalidField("roleId", "err.required")
	}
	return nil
}

func (in *CreateInput) validate() error {
	in.UserName = strings.TrimSpace(in.UserName)
	in.Email = strings.TrimSpace(in.Email)
	return kit.First(
		checkUserName(in.UserName),
		CheckPassword(in.Password),
		checkEmail(in.Email),
		checkRole(in.Root, in.RoleID),
		kit.AtLeast("maxSites", in.MaxSites, 0),
		kit.MaxBytes("nickName", in.NickName, MaxText),
		kit.MaxBytes("contact", in.Contact, MaxText),
	)
}

// userNameKey is the unique key of user names (internal/db/migrations/0001_foundation.sql).
const userNameKey = "app_user_user_name_key"

// Create adds an account.
func (s *Service) Create(ctx context.Context, in CreateInput) (int64, error) {
	if err := in.validate(); err != nil {
		return 0, err
	}
	if err := s.emailFree(ctx, in.Email, 0); err != nil {
		return 0, err
	}
	hash, err := passwd.Hash(passwd.Digest(in.Password))
	if err != nil {
		return 0, kit.Wrap("user", "create: hash", err)
	}
	now := db.NowMS()
	var roleID any
	if in.RoleID != 0 {
		roleID = in.RoleID
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO app_user (user_name, nick_name, email, contact, password_hash, root, role_id, customer_id, max_sites, status, password_changed_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`, in.UserName, in.NickName, in.Email, in.Contact, hash, db.BoolInt(in.Root), roleID, in.CustomerID, in.MaxSites, now, now, now)
	if name, _ := kit.Clash(err); name == userNameKey {
		return 0, apperr.New(apperr.Conflict, "err.username_taken")
	}
	if db.IsForeignKeyViolation(err) {
		return 0, apperr.InvalidField("roleId", "err.invalid")
	}
	return id, kit.Wrap("user", "create", err)
}

func (s *Service) emailFree(ctx context.Context, email string, exceptID int64) error {
	if email == "" {
		return nil
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM app_user WHERE lower(email) = ? AND id <> ?`, strings.ToLower(email), exceptID).Scan(&n); err != nil {
		return kit.Wrap("user", "email check", err)
	}
	if n > 0 {
		return apperr.New(apperr.Conflict, "err.email_taken")
	}
	return nil
}

// UpdateInput changes an account; the user name never changes.
type UpdateInput struct {
	ID         int64  `json:"id"`
	NickName   string `json:"nickName"`
	Email      string `json:"email"`
	Contact    string `json:"contact"`
	RoleID     int64  `json:"roleId"`
	CustomerID int64  `json:"customerId"`
	MaxSites   int    `json:"maxSites"`
}

func (in *UpdateInput) validate() error {
	in.Email = strings.TrimSpace(in.Email)
	return kit.First(
		checkEmail(in.Email),
		kit.AtLeast("maxSites", in.MaxSites, 0),
		kit.MaxBytes("nickName", in.NickName, MaxText),
		kit.MaxBytes("contact", in.Contact, MaxText),
	)
}

// update changes the account old. A changed role ends the user's sessions (forced re-login).
func (s *Service) update(ctx context.Context, old User, in UpdateInput) error {
	if err := s.emailFree(ctx, in.Email, in.ID); err != nil {
		return err
	}
	var roleID any
	if in.RoleID != 0 {
		roleID = in.RoleID
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE app_user SET nick_name = ?, email = ?, contact = ?, role_id = ?, customer_id = ?, max_sites = ?, updated_at = ? WHERE id = ?`,
			in.NickName, in.Email, in.Contact, roleID, in.CustomerID, in.MaxSites, db.NowMS(), in.ID); err != nil {
			return err
		}
		if old.RoleID != in.RoleID {
			return s.sessions.EndAllOfUser(ctx, tx, in.ID, session.ReasonForcedRelogin, "")
		}
		return nil
	})
	return kit.Wrap("user", "update", err)
}

// usersOf limits the app_user rows of a batch to the users p may see.
func usersOf(p *access.Principal) (string, []any) { return p.UserCond("app_user") }

// setStatus enables or disables the accounts ids p sees, all of them or none, in one
// statement; disabling ends their sessions (20004).
func (s *Service) setStatus(ctx context.Context, p *access.Principal, ids kit.IDs, status int) error {
	cond, args := usersOf(p)
	b := kit.Batch{Table: "app_user", Set: "status = ?, updated_at = ?", SetArgs: []any{status, db.NowMS()}, Scope: cond, ScopeArgs: args}
	if status == Disabled {
		b.After = func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
			for _, id := range ids {
				if err := s.sessions.EndAllOfUser(ctx, tx, id, session.ReasonAccountDisable, ""); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return kit.Wrap("user", "set status", b.Run(ctx, s.db, ids))
}

// SetPassword stores a new password (plain, checked against the rules) and ends every other
// session of the user (forced re-login), keeping keepSession.
func (s *Service) SetPassword(ctx context.Context, id int64, plain, keepSession string) error {
	if err := CheckPassword(plain); err != nil {
		return err
	}
	hash, err := passwd.Hash(passwd.Digest(plain))
	if err != nil {
		return kit.Wrap("user", "set password: hash", err)
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		now := db.NowMS()
		if _, err := tx.Exec(ctx, `UPDATE app_user SET password_hash = ?, password_changed_at = ?, failed_logins = 0, locked_until = 0, updated_at = ? WHERE id = ?`,
			hash, now, now, id); err != nil {
			return err
		}
		return s.sessions.EndAllOfUser(ctx, tx, id, session.ReasonForcedRelogin, keepSession)
	})
	return kit.Wrap("user", "set password", err)
}

// ProfileInput is what a user may change about themself on the personal page.
type ProfileInput struct {
	NickName string `json:"nickName"`
	Contact  string `json:"contact"`
	Avatar   string `json:"avatar"`
	Locale   string `json:"locale"`
}

// MaxAvatar bounds the avatar's address, in bytes.
const MaxAvatar = 512

func (in ProfileInput) validate() error {
	return kit.First(
		kit.MaxBytes("nickName", in.NickName, MaxText),
		kit.MaxBytes("contact", in.Contact, MaxText),
		kit.MaxBytes("avatar", in.Avatar, MaxAvatar),
		kit.OneOf("locale", in.Locale, "", "en-US", "zh-CN"),
	)
}

// UpdateProfile changes the caller's own profile.
func (s *Service) UpdateProfile(ctx context.Context, p *access.Principal, in ProfileInput) error {
	if err := in.validate(); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `UPDATE app_user SET nick_name = ?, contact = ?, avatar = ?, locale = ?, updated_at = ? WHERE id = ?`,
		strings.TrimSpace(in.NickName), strings.TrimSpace(in.Contact), in.Avatar, in.Locale, db.NowMS(), p.UserID)
	return kit.Wrap("user", "update profile", err)
}

// ChangeEmail sets the caller's own email once the caller proved the password.
func (s *Service) ChangeEmail(ctx context.Context, p *access.Principal, email string) error {
	email = strings.TrimSpace(email)
	if !ValidEmail(email) {
		return apperr.InvalidField("email", "err.invalid")
	}
	if err := s.emailFree(ctx, email, p.UserID); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `UPDATE app_user SET email = ?, updated_at = ? WHERE id = ?`, email, db.NowMS(), p.UserID)
	return kit.Wrap("user", "change email", err)
}

// AcceptPrivacy records the privacy-policy version the caller accepted.
func (s *Service) AcceptPrivacy(ctx context.Context, p *access.Principal, version string) error {
	_, err := s.db.Exec(ctx, `UPDATE app_user SET privacy_version = ? WHERE id = ?`, version, p.UserID)
	return kit.Wrap("user", "accept privacy", err)
}

// ListFilter filters the user list.
type ListFilter struct {
	db.Page
	UserName   string `json:"userName"`
	RoleID     int64  `json:"roleId"`
	CustomerID *int64 `json:"customerId"` // 0 selects platform users
	Status     *int   `json:"status"`
	Locked     bool   `json:"locked"`
}

// List returns a page of the users p may see, newest first.
func (s *Service) List(ctx context.Context, p *access.Principal, f ListFilter) (db.List[User], error) {
	cond, args := scopeCond(p)
	q := (&db.Query{From: "app_user u LEFT JOIN role r ON r.id = u.role_id"}).And(cond, args...)
	if f.UserName != "" {
		like := db.Contains(f.UserName)
		q.And(`(u.user_name LIKE ? ESCAPE '\' OR u.nick_name LIKE ? ESCAPE '\')`, like, like)
	}
	if f.RoleID != 0 {
		q.And("u.role_id = ?", f.RoleID)
	}
	if f.CustomerID != nil {
		q.And("u.customer_id = ?", *f.CustomerID)
	}
	if f.Status != nil {
		q.And("u.status = ?", *f.Status)
	}
	if f.Locked {
		q.And("u.locked_until > ?", db.NowMS())
	}
	out, err := db.Paged(ctx, s.db, q, userColumns, "u.id DESC", f.Page, scanUser)
	return out, kit.Wrap("user", "list", err)
}

// Unlock clears the lock and failure count of the accounts ids p sees, all of them or none, in
// one statement.
func (s *Service) Unlock(ctx context.Context, p *access.Principal, ids kit.IDs) error {
	cond, args := usersOf(p)
	b := kit.Batch{Table: "app_user", Set: "locked_until = ?, failed_logins = ?", SetArgs: []any{0, 0}, Scope: cond, ScopeArgs: args}
	return kit.Wrap("user", "unlock", b.Run(ctx, s.db, ids))
}

// UpsertRoot creates a root account or resets an existing account to root with a new password
// (the create-root admin helper).
func (s *Service) UpsertRoot(ctx context.Context, name, plain string) (int64, bool, error) {
	u, err := s.GetByName(ctx, name)
	if err == nil {
		if err := s.SetPassword(ctx, u.ID, plain, ""); err != nil {
			return 0, false, err
		}
		_, err := s.db.Exec(ctx, `UPDATE app_user SET root = ?, status = ? WHERE id = ?`, db.BoolInt(true), Enabled, u.ID)
		return u.ID, false, kit.Wrap("user", "upsert root", err)
	}
	if !apperr.IsNotFound(err) {
		return 0, false, err
	}
	id, err := s.Create(ctx, CreateInput{UserName: name, Password: plain, Root: true})
	return id, true, err
}

// Count returns how many accounts exist (to tell a fresh install).
func (s *Service) Count(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM app_user`).Scan(&n)
	return n, kit.Wrap("user", "count", err)
}

// CheckPassword applies the password rules of docs/api.md#passwords-on-the-wire to a new password.
func CheckPassword(plain string) error {
	if !passwd.ValidPassword(plain) {
		return apperr.InvalidField("password", "err.password_rule")
	}
	return nil
}
