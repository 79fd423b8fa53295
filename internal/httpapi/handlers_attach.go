package httpapi

import (
	"net/url"
	"strings"

	"chargeops/internal/attach"
	"chargeops/internal/db"
)

// Attachments, folders and shares (docs/attachments.md).

func (s *Server) attachTree(c *Ctx, in attach.TreeInput) ([]*attach.Folder, error) {
	return s.Attach.Tree(c, c.P, in)
}

func (s *Server) attachFolderAdd(c *Ctx, in attach.FolderInput) (IDAnswer, error) {
	id, err := s.Attach.AddFolder(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) attachFolderUpdate(c *Ctx, in attach.FolderInput) (Empty, error) {
	return Empty{}, s.Attach.UpdateFolder(c, c.P, in)
}

func (s *Server) attachFolderDelete(c *Ctx, in IDInput) (Empty, error) {
	return Empty{}, s.Attach.DeleteFolder(c, c.P, in.ID)
}

func (s *Server) attachList(c *Ctx, in attach.ListInput) (db.List[*attach.File], error) {
	return s.Attach.List(c, c.P, in)
}

func (s *Server) attachDetail(c *Ctx, in IDInput) (*attach.File, error) {
	return s.Attach.Detail(c, c.P, in.ID)
}

func (s *Server) attachAdd(c *Ctx, in attach.FileInput) (IDAnswer, error) {
	id, err := s.Attach.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) attachUpdate(c *Ctx, in attach.FileInput) (Empty, error) {
	return Empty{}, s.Attach.Update(c, c.P, in)
}

func (s *Server) attachMove(c *Ctx, in attach.MoveInput) (Empty, error) {
	return Empty{}, s.Attach.Move(c, c.P, in)
}

func (s *Server) attachDelete(c *Ctx, in IDsInput) (Empty, error) {
	return Empty{}, s.Attach.Delete(c, c.P, in.IDs)
}

func (s *Server) attachURL(c *Ctx, in IDInput) (attach.Link, error) {
	return s.Attach.DownloadURL(c, c.P, in.ID)
}

func (s *Server) shareAdd(c *Ctx, in attach.ShareInput) (attach.Made, error) {
	in.Origin = s.shareOrigin(c)
	return s.Attach.AddShare(c, c.P, in)
}

// FileIDInput names a file.
type FileIDInput struct {
	FileID int64 `json:"fileId"`
}

func (s *Server) shareList(c *Ctx, in FileIDInput) ([]attach.Share, error) {
	return s.Attach.Shares(c, c.P, in.FileID)
}

func (s *Server) shareReset(c *Ctx, in attach.ResetInput) (attach.Made, error) {
	return s.Attach.ResetShare(c, c.P, in)
}

func (s *Server) shareDelete(c *Ctx, in IDInput) (Empty, error) {
	return Empty{}, s.Attach.DeleteShare(c, c.P, in.ID)
}

func (s *Server) shareLog(c *Ctx, in IDInput) ([]attach.AccessLog, error) {
	return s.Attach.AccessLog(c, c.P, in.ID)
}

// ShareTokenInput names a share by its token; Code is its access code (downloads).
type ShareTokenInput struct {
	Token string `json:"token"`
	Code  string `json:"code"`
}

func (s *Server) sharePublicInfo(c *Ctx, in ShareTokenInput) (attach.PublicInfo, error) {
	return s.Attach.Info(c, in.Token, c.Client.IP)
}

func (s *Server) sharePublicDownload(c *Ctx, in ShareTokenInput) (attach.Link, error) {
	return s.Attach.Download(c, in.Token, in.Code, c.Client.IP)
}

// shareOrigin is the console origin a share link is built on, the current origin as the spec
// asks: the request's Origin (or Referer) when it is the configured public URL's or the
// request's own host, else the configured public URL, else the request's host. A forged
// Origin of another host is never used.
func (s *Server) shareOrigin(c *Ctx) string {
	public := originOf(s.opt.PublicURL)
	host := c.R.Host
	for _, h := range []string{c.R.Header.Get("Origin"), c.R.Header.Get("Referer")} {
		o := originOf(h)
		if o == "" {
			continue
		}
		if u, _ := url.Parse(o); u != nil && (o == public || strings.EqualFold(u.Host, host)) {
			return o
		}
	}
	if public != "" {
		return public
	}
	scheme := "http"
	if c.R.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + host
}

// originOf is scheme://host of an absolute http(s) URL ("" otherwise).
func originOf(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}
