// Package attach is the attachments screen's server side (docs/attachments.md): folders and
// files of a customer, with read/write/download levels checked against the role's attachment
// level, and shares of a file opened signed out with a token and a 4-digit code.
package attach

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"chargeops/internal/access"
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/kit"
	"chargeops/internal/ratelimit"
	"chargeops/internal/storage"
)

// Service keeps folders, files and shares.
type Service struct {
	db      *db.DB
	uploads *storage.Service
	limiter *ratelimit.Limiter
}

// New serves attachments whose objects live in uploads' store.
func New(d *db.DB, uploads *storage.Service, limiter *ratelimit.Limiter) *Service {
	return &Service{db: d, uploads: uploads, limiter: limiter}
}

// Levels are the three levels of a folder or file (0-5, 0 the highest).
type Levels struct {
	ReadLevel     int `json:"readLevel"`
	WriteLevel    int `json:"writeLevel"`
	DownloadLevel int `json:"downloadLevel"`
}

func (l Levels) check() error {
	for f, v := range map[string]int{"readLevel": l.ReadLevel, "writeLevel": l.WriteLevel, "downloadLevel": l.DownloadLevel} {
		if v < 0 || v > 5 {
			return apperr.InvalidField(f, "err.invalid")
		}
	}
	return nil
}

// within refuses levels lower than the folder's (numerically greater: reachable by more roles).
func (l Levels) within(folder Levels) error {
	for _, c := range []struct {
		f      string
		v, max int
	}{{"readLevel", l.ReadLevel, folder.ReadLevel}, {"writeLevel", l.WriteLevel, folder.WriteLevel}, {"downloadLevel", l.DownloadLevel, folder.DownloadLevel}} {
		if c.v > c.max {
			return apperr.New(apperr.Invalid, "err.attach_level_below_folder").With(map[string]any{"field": c.f, "level": c.max})
		}
	}
	return nil
}

// raised is l raised to at least folder's levels.
func (l Levels) raised(folder Levels) Levels {
	return Levels{min(l.ReadLevel, folder.ReadLevel), min(l.WriteLevel, folder.WriteLevel), min(l.DownloadLevel, folder.DownloadLevel)}
}

// usable refuses levels the caller could not use itself (it would lock itself out).
func (l Levels) usable(p *access.Principal) error {
	if !access.CanUseAttachment(p, l.ReadLevel) || !access.CanUseAttachment(p, l.WriteLevel) || !access.CanUseAttachment(p, l.DownloadLevel) {
		return apperr.New(apperr.Invalid, "err.attach_level_above_role").With(map[string]any{"level": p.Role.AttachLevel})
	}
	return nil
}

var (
	errFolderNotEmpty = apperr.New(apperr.Conflict, "err.attach_folder_not_empty")
	errNameTaken      = apperr.New(apperr.Conflict, "err.attach_name_taken")
)

// pathClash is errNameTaken for a clash on a folder's path within its customer; anything else
// passes unchanged.
func pathClash(err error) error {
	if name, ok := kit.Clash(err); ok && name == "uq_attach_folder_path" {
		return errNameTaken
	}
	return err
}

// Folder is one folder of the tree.
type Folder struct {
	ID         int64  `json:"id"`
	CustomerID int64  `json:"customerId"`
	ParentID   int64  `json:"parentId"`
	Name       string `json:"name"`
	Path       string `json:"path"`
	Levels
	CreatedBy    int64     `json:"createdBy"`
	CreatorName  string    `json:"creatorName"`
	CreatedAt    int64     `json:"createdAt"`
	Writable     bool      `json:"writable"`
	Downloadable bool      `json:"downloadable"`
	Children     []*Folder `json:"children"`
}

const folderCols = `f.id, f.customer_id, f.parent_id, f.name, f.path, f.read_level, f.write_level, f.download_level, f.created_by, COALESCE(u.user_name, ''), f.created_at`

func scanFolder(sc interface{ Scan(...any) error }) (*Folder, error) {
	f := &Folder{Children: []*Folder{}}
	err := sc.Scan(&f.ID, &f.CustomerID, &f.ParentID, &f.Name, &f.Path, &f.ReadLevel, &f.WriteLevel, &f.DownloadLevel, &f.CreatedBy, &f.CreatorName, &f.CreatedAt)
	return f, err
}

func (f *Folder) mark(p *access.Principal) *Folder {
	f.Writable, f.Downloadable = access.CanUseAttachment(p, f.WriteLevel), access.CanUseAttachment(p, f.DownloadLevel)
	return f
}

// MaxFolders bounds one tree answer.
const MaxFolders = 5000

// TreeInput picks a customer's tree (0: every customer in scope).
type TreeInput struct {
	CustomerID int64 `json:"customerId"`
}

// Tree is the folders the caller may read, nested; a folder it may not read is left out with
// what is under it.
func (s *Service) Tree(ctx context.Context, p *access.Principal, in TreeInput) ([]*Folder, error) {
	cond, args := p.Scope.CustomerCond("f.customer_id")
	q := `SELECT ` + folderCols + ` FROM attach_folder f LEFT JOIN app_user u ON u.id = f.created_by WHERE ` + cond
	if in.CustomerID > 0 {
		q += ` AND f.customer_id = ?`
		args = append(args, in.CustomerID)
	}
	q += fmt.Sprintf(` ORDER BY f.customer_id, f.path LIMIT %d`, MaxFolders)
	rows, err := s.db.Query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("attach: tree: %w", err)
	}
	defer rows.Close()
	var all []*Folder
	for rows.Next() {
		f, err := scanFolder(rows)
		if err != nil {
			return nil, err
		}
		if access.CanUseAttachment(p, f.ReadLevel) {
			all = append(all, f.mark(p))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	byID := map[int64]*Folder{}
	for _, f := range all {
		byID[f.ID] = f
	}
	roots := []*Folder{}
	for _, f := range all { // ordered by path: a parent comes before its children
		if f.ParentID == 0 {
			roots = append(roots, f)
		} else if parent, ok := byID[f.ParentID]; ok {
			parent.Children = append(parent.Children, f)
		} else {
			delete(byID, f.ID) // under a folder the caller may not read
		}
	}
	return roots, nil
}

// folder reads a folder in the caller's scope that the caller may read; anything else is not
// found.
// writableFolder is folder id when p may write in it and levels are not lower than its own.
func (s *Service) writableFolder(ctx context.Context, p *access.Principal, id int64, levels Levels) (*Folder, error) {
	f, err := s.folder(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if !f.Writable {
		return nil, apperr.ErrNoPermission
	}
	if err := levels.within(f.Levels); err != nil {
		return nil, err
	}
	return f, nil
}

func (s *Service) folder(ctx context.Context, p *access.Principal, id int64) (*Folder, error) {
	cond, args := p.Scope.CustomerCond("f.customer_id")
	f, err := scanFolder(s.db.QueryRow(ctx, `SELECT `+folderCols+` FROM attach_folder f LEFT JOIN app_user u ON u.id = f.created_by WHERE f.id = ? AND `+cond, append([]any{id}, args...)...))
	if db.NotFound(err) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("attach: folder: %w", err)
	}
	if !access.CanUseAttachment(p, f.ReadLevel) {
		return nil, apperr.ErrNotFound
	}
	return f.mark(p), nil
}

// FolderInput adds (ID 0) or changes a folder.
type FolderInput struct {
	ID         int64  `json:"id"`
	CustomerID int64  `json:"customerId"` // add: the folder's customer (0: the caller's; with a parent: the parent's)
	ParentID   int64  `json:"parentId"`
	Name       string `json:"name"`
	Levels
}

func cleanName(field, name string, max int) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", apperr.InvalidField(field, "err.required")
	}
	if len([]rune(name)) > max || strings.ContainsAny(name, "/\\\x00") {
		return "", apperr.InvalidField(field, "err.invalid")
	}
	return name, nil
}

// AddFolder makes a folder under parent (0: at the top of a customer's tree).
func (s *Service) AddFolder(ctx context.Context, p *access.Principal, in FolderInput) (int64, error) {
	name, err := cleanName("name", in.Name, 100)
	if err != nil {
		return 0, err
	}
	if err := in.Levels.check(); err != nil {
		return 0, err
	}
	if err := in.Levels.usable(p); err != nil {
		return 0, err
	}
	customer, path := in.CustomerID, name
	if in.ParentID > 0 {
		parent, err := s.writableFolder(ctx, p, in.ParentID, in.Levels)
		if err != nil {
			return 0, err
		}
		customer, path = parent.CustomerID, parent.Path+"/"+name
	} else {
		if customer == 0 {
			customer = p.CustomerID
		}
		if !p.Root && !p.Scope.HasCustomer(customer) {
			return 0, apperr.ErrNotFound
		}
	}
	if customer == 0 {
		return 0, apperr.InvalidField("customerId", "err.required")
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO attach_folder (customer_id, parent_id, name, path, read_level, write_level, download_level, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		customer, in.ParentID, name, path, in.ReadLevel, in.WriteLevel, in.DownloadLevel, p.UserID, db.NowMS())
	return id, pathClash(err)
}

// UpdateFolder renames a folder and sets its levels: the files and folders under it are raised
// to at least its new levels.
func (s *Service) UpdateFolder(ctx context.Context, p *access.Principal, in FolderInput) error {
	f, err := s.folder(ctx, p, in.ID)
	if err != nil {
		return err
	}
	if !f.Writable {
		return apperr.ErrNoPermission
	}
	name, err := cleanName("name", in.Name, 100)
	if err != nil {
		return err
	}
	if err := in.Levels.check(); err != nil {
		return err
	}
	if err := in.Levels.usable(p); err != nil {
		return err
	}
	if f.ParentID > 0 {
		var parent Levels
		if err := s.db.QueryRow(ctx, `SELECT read_level, write_level, download_level FROM attach_folder WHERE id = ?`, f.ParentID).Scan(&parent.ReadLevel, &parent.WriteLevel, &parent.DownloadLevel); err != nil {
			return fmt.Errorf("attach: parent: %w", err)
		}
		if err := in.Levels.within(parent); err != nil {
			return err
		}
	}
	newPath := name
	if i := strings.LastIndex(f.Path, "/"); i >= 0 {
		newPath = f.Path[:i+1] + name
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE attach_folder SET name = ?, path = ?, read_level = ?, write_level = ?, download_level = ? WHERE id = ?`,
			name, newPath, in.ReadLevel, in.WriteLevel, in.DownloadLevel, f.ID); err != nil {
			return err
		}
		under := f.Path + "/%"
		if newPath != f.Path {
			if _, err := tx.Exec(ctx, `UPDATE attach_folder SET path = ? || substr(path, ?) WHERE customer_id = ? AND path LIKE ?`,
				newPath, len(f.Path)+1, f.CustomerID, under); err != nil {
				return err
			}
			under = newPath + "/%"
		}
		raise := `UPDATE %s SET read_level = CASE WHEN read_level > ? THEN ? ELSE read_level END,
			write_level = CASE WHEN write_level > ? THEN ? ELSE write_level END,
			download_level = CASE WHEN download_level > ? THEN ? ELSE download_level END WHERE %s`
		lv := []any{in.ReadLevel, in.ReadLevel, in.WriteLevel, in.WriteLevel, in.DownloadLevel, in.DownloadLevel}
		if _, err := tx.Exec(ctx, fmt.Sprintf(raise, "attach_folder", "customer_id = ? AND path LIKE ?"), append(lv, f.CustomerID, under)...); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, fmt.Sprintf(raise, "attach_file", "folder_id IN (SELECT id FROM attach_folder WHERE customer_id = ? AND (id = ? OR path LIKE ?))"), append(lv, f.CustomerID, f.ID, under)...)
		return err
	})
	return pathClash(err)
}

// DeleteFolder deletes an empty folder; one with files or folders in it is refused.
func (s *Service) DeleteFolder(ctx context.Context, p *access.Principal, id int64) error {
	f, err := s.folder(ctx, p, id)
	if err != nil {
		return err
	}
	if !f.Writable {
		return apperr.ErrNoPermission
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM attach_folder WHERE parent_id = ?) + (SELECT COUNT(*) FROM attach_file WHERE folder_id = ?)`, id, id).Scan(&n); err != nil {
		return fmt.Errorf("attach: folder content: %w", err)
	}
	if n > 0 {
		return errFolderNotEmpty
	}
	_, err = s.db.Exec(ctx, `DELETE FROM attach_folder WHERE id = ?`, id)
	return err
}

// File is one attachment.
type File struct {
	ID          int64  `json:"id"`
	FolderID    int64  `json:"folderId"`
	CustomerID  int64  `json:"customerId"`
	Name        string `json:"name"`
	Path        string `json:"path"` // the folder's path
	ObjectKey   string `json:"objectKey"`
	Size        int64  `json:"size"`
	ContentType string `json:"contentType"`
	Description string `json:"description"`
	Levels
	CreatedBy    int64  `json:"createdBy"`
	CreatorName  string `json:"creatorName"`
	CreatedAt    int64  `json:"createdAt"`
	Writable     bool   `json:"writable"`
	Downloadable bool   `json:"downloadable"`
	folder       Levels
}

const fileCols = `a.id, a.folder_id, a.customer_id, a.name, f.path, a.object_key, a.size, a.content_type, a.description, a.read_level, a.write_level, a.download_level,
	a.created_by, COALESCE(u.user_name, ''), a.created_at, f.read_level, f.write_level, f.download_level`

const fileFrom = ` FROM attach_file a JOIN attach_folder f ON f.id = a.folder_id LEFT JOIN app_user u ON u.id = a.created_by`

func scanFile(sc interface{ Scan(...any) error }) (*File, error) {
	x := &File{}
	err := sc.Scan(&x.ID, &x.FolderID, &x.CustomerID, &x.Name, &x.Path, &x.ObjectKey, &x.Size, &x.ContentType, &x.Description, &x.ReadLevel, &x.WriteLevel, &x.DownloadLevel,
		&x.CreatedBy, &x.CreatorName, &x.CreatedAt, &x.folder.ReadLevel, &x.folder.WriteLevel, &x.folder.DownloadLevel)
	return x, err
}

// readable: the caller may read the file and its folder.
func (x *File) readable(p *access.Principal) bool {
	return access.CanUseAttachment(p, x.ReadLevel) && access.CanUseAttachment(p, x.folder.ReadLevel)
}

func (x *File) mark(p *access.Principal) *File {
	x.Writable, x.Downloadable = access.CanUseAttachment(p, x.WriteLevel), access.CanUseAttachment(p, x.DownloadLevel)
	return x
}

// ListInput filters files: a folder (0: every folder in scope), a name part; paged.
type ListInput struct {
	db.Page
	FolderID   int64  `json:"folderId"`
	CustomerID int64  `json:"customerId"`
	Name       string `json:"name"`
}

// List is the files the caller may read, newest first.
func (s *Service) List(ctx context.Context, p *access.Principal, in ListInput) (db.List[*File], error) {
	out := db.List[*File]{List: []*File{}}
	cond, args := p.Scope.CustomerCond("a.customer_id")
	where := ` WHERE ` + cond
	if !p.Root {
		where += ` AND a.read_level >= ? AND f.read_level >= ?`
		args = append(args, p.Role.AttachLevel, p.Role.AttachLevel)
	}
	if in.FolderID > 0 {
		where += ` AND a.folder_id = ?`
		args = append(args, in.FolderID)
	}
	if in.CustomerID > 0 {
		where += ` AND a.customer_id = ?`
		args = append(args, in.CustomerID)
	}
	if n := strings.TrimSpace(in.Name); n != "" {
		where += ` AND LOWER(a.name) LIKE LOWER(?) ESCAPE '\'`
		args = append(args, db.Contains(n))
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+fileFrom+where, args...).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("attach: count: %w", err)
	}
	limit, offset := in.Page.LimitOffset()
	rows, err := s.db.Query(ctx, `SELECT `+fileCols+fileFrom+where+fmt.Sprintf(` ORDER BY a.id DESC LIMIT %d OFFSET %d`, limit, offset), args...)
	if err != nil {
		return out, fmt.Errorf("attach: list: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		x, err := scanFile(rows)
		if err != nil {
			return out, err
		}
		out.List = append(out.List, x.mark(p))
	}
	return out, rows.Err()
}

// file reads a file the caller may read; anything else is not found.
func (s *Service) file(ctx context.Context, p *access.Principal, id int64) (*File, error) {
	cond, args := p.Scope.CustomerCond("a.customer_id")
	x, err := scanFile(s.db.QueryRow(ctx, `SELECT `+fileCols+fileFrom+` WHERE a.id = ? AND `+cond, append([]any{id}, args...)...))
	if db.NotFound(err) {
		return nil, apperr.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("attach: file: %w", err)
	}
	if !x.readable(p) {
		return nil, apperr.ErrNotFound
	}
	return x.mark(p), nil
}

// Detail is one file the caller may read.
func (s *Service) Detail(ctx context.Context, p *access.Principal, id int64) (*File, error) {
	return s.file(ctx, p, id)
}

// FileInput registers an upload as a file (ID 0) or changes a file's name, description, levels.
type FileInput struct {
	ID          int64  `json:"id"`
	FolderID    int64  `json:"folderId"`
	ObjectKey   string `json:"objectKey"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Levels
}

func (in FileInput) clean() (string, string, error) {
	name, err := cleanName("name", in.Name, 200)
	if err != nil {
		return "", "", err
	}
	desc := strings.TrimSpace(in.Description)
	if len([]rune(desc)) > 500 {
		return "", "", apperr.InvalidField("description", "err.invalid")
	}
	if err := in.Levels.check(); err != nil {
		return "", "", err
	}
	return name, desc, nil
}

// Add registers the caller's confirmed upload (oss/sts/write, the upload, oss/confirm) as a
// file of a folder the caller may write.
func (s *Service) Add(ctx context.Context, p *access.Principal, in FileInput) (int64, error) {
	name, desc, err := in.clean()
	if err != nil {
		return 0, err
	}
	if err := in.Levels.usable(p); err != nil {
		return 0, err
	}
	folder, err := s.writableFolder(ctx, p, in.FolderID, in.Levels)
	if err != nil {
		return 0, err
	}
	if strings.TrimSpace(in.ObjectKey) == "" {
		return 0, apperr.InvalidField("objectKey", "err.required")
	}
	up, err := s.uploads.OwnedUpload(ctx, p, strings.TrimSpace(in.ObjectKey))
	if err != nil {
		return 0, err
	}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM attach_file WHERE object_key = ?`, up.ObjectKey).Scan(&n); err != nil {
		return 0, err
	}
	if n > 0 {
		return 0, apperr.New(apperr.Conflict, "err.attach_object_taken")
	}
	id, err := db.InsertID(ctx, s.db, `INSERT INTO attach_file (folder_id, customer_id, name, object_key, size, content_type, description, read_level, write_level, download_level, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, folder.ID, folder.CustomerID, name, up.ObjectKey, up.Size, up.ContentType, desc,
		in.ReadLevel, in.WriteLevel, in.DownloadLevel, p.UserID, db.NowMS())
	if err != nil {
		return 0, err
	}
	// From now on the file's levels and shares decide who reads the object, not oss/url.
	return id, s.uploads.Hold(ctx, up.ObjectKey)
}

// writable reads a file the caller may change.
func (s *Service) writable(ctx context.Context, p *access.Principal, id int64) (*File, error) {
	x, err := s.file(ctx, p, id)
	if err != nil {
		return nil, err
	}
	if !x.Writable || !access.CanUseAttachment(p, x.folder.WriteLevel) {
		return nil, apperr.ErrNoPermission
	}
	return x, nil
}

// Update changes a file's name, description and levels.
func (s *Service) Update(ctx context.Context, p *access.Principal, in FileInput) error {
	x, err := s.writable(ctx, p, in.ID)
	if err != nil {
		return err
	}
	name, desc, err := in.clean()
	if err != nil {
		return err
	}
	if err := in.Levels.usable(p); err != nil {
		return err
	}
	if err := in.Levels.within(x.folder); err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `UPDATE attach_file SET name = ?, description = ?, read_level = ?, write_level = ?, download_level = ? WHERE id = ?`,
		name, desc, in.ReadLevel, in.WriteLevel, in.DownloadLevel, x.ID)
	return err
}

// MoveInput moves files into a folder.
type MoveInput struct {
	IDs      []int64 `json:"ids"`
	FolderID int64   `json:"folderId"`
}

// Move puts files into a folder of the same customer; their levels are raised to at least the
// folder's.
func (s *Service) Move(ctx context.Context, p *access.Principal, in MoveInput) error {
	if err := kit.IDs(in.IDs).CheckMax(MaxIDs); err != nil {
		return err
	}
	folder, err := s.folder(ctx, p, in.FolderID)
	if err != nil {
		return err
	}
	if !folder.Writable {
		return apperr.ErrNoPermission
	}
	files := make([]*File, 0, len(in.IDs))
	for _, id := range in.IDs {
		x, err := s.writable(ctx, p, id)
		if err != nil {
			return err
		}
		if x.CustomerID != folder.CustomerID {
			return apperr.InvalidField("folderId", "err.invalid")
		}
		files = append(files, x)
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, x := range files {
			l := x.Levels.raised(folder.Levels)
			if _, err := tx.Exec(ctx, `UPDATE attach_file SET folder_id = ?, read_level = ?, write_level = ?, download_level = ? WHERE id = ?`,
				folder.ID, l.ReadLevel, l.WriteLevel, l.DownloadLevel, x.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// MaxIDs bounds one move or delete of files.
const MaxIDs = 100

// Delete deletes files, their shares and their uploaded objects: all of them or none.
func (s *Service) Delete(ctx context.Context, p *access.Principal, ids []int64) error {
	if err := kit.IDs(ids).CheckMax(MaxIDs); err != nil {
		return err
	}
	ids = kit.IDs(ids).Distinct()
	files := make([]*File, 0, len(ids))
	for _, id := range ids {
		x, err := s.writable(ctx, p, id)
		if err != nil {
			return err
		}
		files = append(files, x)
	}
	cond, args := p.Scope.CustomerCond("customer_id")
	del := kit.Batch{Table: "attach_file", Scope: cond, ScopeArgs: args,
		Before: func(ctx context.Context, tx *db.Tx, ids kit.IDs) error {
			_, err := tx.Exec(ctx, `DELETE FROM attach_share WHERE file_id IN (`+ids.In()+`)`, ids.Args()...)
			return err
		}}
	if err := del.Run(ctx, s.db, ids); err != nil {
		return kit.Wrap("attach", "delete", err)
	}
	for _, x := range files {
		if err := s.uploads.Forget(context.WithoutCancel(ctx), x.ObjectKey); err != nil {
			return kit.Wrap("attach", "forget object", err)
		}
	}
	return nil
}

// Link is a signed download link.
type Link struct {
	URL       string `json:"url"`
	ExpiresAt int64  `json:"expiresAt"`
}

func (s *Service) link(ctx context.Context, x *File) (Link, error) {
	ttl := s.uploads.LinkTTL()
	u, err := s.uploads.Store.SignedGetURL(ctx, x.ObjectKey, ttl, storage.CleanDownloadName(x.Name))
	if errors.Is(err, storage.ErrNotFound) {
		return Link{}, apperr.ErrNotFound
	}
	return Link{URL: u, ExpiresAt: time.Now().Add(ttl).UnixMilli()}, err
}

// DownloadURL is a signed link (3600 s) to a file the caller may download, served under the
// file's name.
func (s *Service) DownloadURL(ctx context.Context, p *access.Principal, id int64) (Link, error) {
	x, err := s.file(ctx, p, id)
	if err != nil {
		return Link{}, err
	}
	if !x.Downloadable || !access.CanUseAttachment(p, x.folder.DownloadLevel) {
		return Link{}, apperr.ErrNoPermission
	}
	return s.link(ctx, x)
}
