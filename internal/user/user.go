// Package user owns console accounts: their profile, password, status, lock-out state and
// privacy acceptance.
package user

import (
	"context"
	"net/mail"
	"strings"

	"chargeops/internal/apperr"
	"chargeops/internal/db"
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
	return u, err
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

func (in *CreateInput) validate() error {
	in.UserName = strings.TrimSpace(in.UserName)
	in.Email = strings.TrimSpace(in.Email)
	if !passwd.ValidUserName(in.UserName) {
		return apperr.New(apperr.Invalid, "err.username_rule")
	}
	if err := CheckPassword(in.Password); err != nil {
		return err
	}
	switch {
	case in.Email != "" && !ValidEmail(in.Email):
		return apperr.InvalidField("email", "err.invalid")
	case !in.Root && in.RoleID == 0:
		return apperr.InvalidField("roleId", "err.required")
	case in.MaxSites < 0 || len(in.NickName) > 64 || len(in.Contact) > 64:
		return apperr.InvalidField("maxSites", "err.invalid")
	}
	return nil
}

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
		return 0, err
	}
	now := db.NowMS()
	var roleID any
	if in.RoleID != 0 {
		roleID = in.RoleID
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO app_user (user_name, nick_name, email, contact, password_hash, root, role_id, customer_id, max_sites, status, password_changed_at, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)`, in.UserName, in.NickName, in.Email, in.Contact, hash, db.BoolInt(in.Root), roleID, in.CustomerID, in.MaxSites, now, now, now)
	if db.IsUniqueViolation(err) {
		return 0, apperr.New(apperr.Conflict, "err.username_taken")
	}
	if db.IsForeignKeyViolation(err) {
		return 0, apperr.InvalidField("roleId", "err.invalid")
	}
	return id, err
}

func (s *Service) emailFree(ctx context.Context, email string, exceptID int64) error {
	if email == "" {
		return nil
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM app_user WHERE lower(email) = ? AND id <> ?`, strings.ToLower(email), exceptID).Scan(&n); err != nil {
		return err
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

// Update changes an account. A changed role ends the user's sessions (forced re-login).
func (s *Service) Update(ctx context.Context, in UpdateInput) error {
	in.Email = strings.TrimSpace(in.Email)
	if in.Email != "" && !ValidEmail(in.Email) {
		return apperr.InvalidField("email", "err.invalid")
	}
	if in.MaxSites < 0 || len(in.NickName) > 64 || len(in.Contact) > 64 {
		return apperr.InvalidField("maxSites", "err.invalid")
	}
	old, err := s.Get(ctx, in.ID)
	if err != nil {
		return err
	}
	if !old.Root && in.RoleID == 0 {
		return apperr.InvalidField("roleId", "err.required")
	}
	if err := s.emailFree(ctx, in.Email, in.ID); err != nil {
		return err
	}
	var roleID any
	if in.RoleID != 0 {
		roleID = in.RoleID
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE app_user SET nick_name = ?, email = ?, contact = ?, role_id = ?, customer_id = ?, max_sites = ?, updated_at = ? WHERE id = ?`,
			in.NickName, in.Email, in.Contact, roleID, in.CustomerID, in.MaxSites, db.NowMS(), in.ID); err != nil {
			return err
		}
		if old.RoleID != in.RoleID {
			return s.sessions.EndAllOfUser(ctx, tx, in.ID, session.ReasonForcedRelogin, "")
		}
		return nil
	})
}

// SetStatus enables or disables accounts; disabling ends their sessions (20004).
func (s *Service) SetStatus(ctx context.Context, ids []int64, status int) error {
	if status != Enabled && status != Disabled {
		return apperr.InvalidField("status", "err.invalid")
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			res, err := tx.Exec(ctx, `UPDATE app_user SET status = ?, updated_at = ? WHERE id = ?`, status, db.NowMS(), id)
			if err := db.Affected(res, err, apperr.ErrNotFound); err != nil {
				return err
			}
			if status == Disabled {
				if err := s.sessions.EndAllOfUser(ctx, tx, id, session.ReasonAccountDisable, ""); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// SetPassword stores a new password (plain, checked against the rules) and ends every other
// session of the user (forced re-login), keeping keepSession.
func (s *Service) SetPassword(ctx context.Context, id int64, plain, keepSession string) error {
	if err := CheckPassword(plain); err != nil {
		return err
	}
	hash, err := passwd.Hash(passwd.Digest(plain))
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		now := db.NowMS()
		if _, err := tx.Exec(ctx, `UPDATE app_user SET password_hash = ?, password_changed_at = ?, failed_logins = 0, locked_until = 0, updated_at = ? WHERE id = ?`,
			hash, now, now, id); err != nil {
			return err
		}
		return s.sessions.EndAllOfUser(ctx, tx, id, session.ReasonForcedRelogin, keepSession)
	})
}

// ProfileInput is what a user may change about themself on the personal page.
type ProfileInput struct {
	NickName string `json:"nickName"`
	Contact  string `json:"contact"`
	Avatar   string `json:"avatar"`
	Locale   string `json:"locale"`
}

// UpdateProfile changes the caller's own profile.
func (s *Service) UpdateProfile(ctx context.Context, id int64, in ProfileInput) error {
	if len(in.NickName) > 64 || len(in.Contact) > 64 || len(in.Avatar) > 512 {
		return apperr.InvalidField("nickName", "err.invalid")
	}
	if in.Locale != "" && in.Locale != "en-US" && in.Locale != "zh-CN" {
		return apperr.InvalidField("locale", "err.invalid")
	}
	_, err := s.db.Exec(ctx, `UPDATE app_user SET nick_name = ?, contact = ?, avatar = ?, locale = ?, updated_at = ? WHERE id = ?`,
		strings.TrimSpace(in.NickName), strings.TrimSpace(in.Contact), in.Avatar, in.Locale, db.NowMS(), id)
	return err
}

// ChangeEmail sets a user's email after the caller proved the password.
func (s *Service) ChangeEmail(ctx context.Context, id int64, email string) error {
	email = strings.TrimSpace(email)
	if !ValidEmail(email) {
		return apperr.InvalidField("email", "err.invalid")
	}
	if err := s.emailFree(ctx, email, id); err != nil {
		return err
	}
	_, err := s.db.Exec(ctx, `UPDATE app_user SET email = ?, updated_at = ? WHERE id = ?`, email, db.NowMS(), id)
	return err
}

// AcceptPrivacy records the privacy-policy version the user accepted.
func (s *Service) AcceptPrivacy(ctx context.Context, id int64, version string) error {
	_, err := s.db.Exec(ctx, `UPDATE app_user SET privacy_version = ? WHERE id = ?`, version, id)
	return err
}

// ListFilter filters the user list.
type ListFilter struct {
	db.Page
	UserName   string `json:"userName"`
	RoleID     int64  `json:"roleId"`
	CustomerID *int64 `json:"customerId"` // 0 selects platform users
	Status     *int   `json:"status"`
	Locked     bool   `json:"locked"`
	scope      *scopeFilter
}

// List returns a page of users, newest first.
func (s *Service) List(ctx context.Context, f ListFilter) (db.List[User], error) {
	q := &db.Query{From: "app_user u LEFT JOIN role r ON r.id = u.role_id"}
	if f.scope != nil {
		q.And(f.scope.cond, f.scope.args...)
	}
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
	return db.Paged(ctx, s.db, q, userColumns, "u.id DESC", f.Page, scanUser)
}

// Unlock clears the lock and failure count of accounts.
func (s *Service) Unlock(ctx context.Context, ids []int64) error {
	for _, id := range ids {
		if _, err := s.db.Exec(ctx, `UPDATE app_user SET locked_until = 0, failed_logins = 0 WHERE id = ?`, id); err != nil {
			return err
		}
	}
	return nil
}

// UpsertRoot creates a root account or resets an existing account to root with a new password
// (the create-root admin helper).
func (s *Service) UpsertRoot(ctx context.Context, name, plain string) (int64, bool, error) {
	u, err := s.GetByName(ctx, name)
	if err == nil {
		if err := s.SetPassword(ctx, u.ID, plain, ""); err != nil {
			return 0, false, err
		}
		_, err := s.db.Exec(ctx, `UPDATE app_user SET root = 1, status = 1 WHERE id = ?`, u.ID)
		return u.ID, false, err
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
	return n, err
}

// CheckPassword applies the password rules of spec §5 to a new password.
func CheckPassword(plain string) error {
	if !passwd.ValidPassword(plain) {
		return apperr.New(apperr.Invalid, "err.password_rule")
	}
	return nil
}
