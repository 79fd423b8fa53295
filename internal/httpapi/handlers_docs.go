package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/docs"
	"chargeops/internal/fleet/read"
)

// The docs wiki (docs/docs-wiki.md).

func (s *Server) docsHome(c *Ctx, _ Empty) (docs.Home, error) { return s.Docs.Home(c, c.P) }

func (s *Server) docsList(c *Ctx, in docs.ListInput) (db.List[*docs.Document], error) {
	return s.Docs.List(c, c.P, in)
}

func (s *Server) docsSearch(c *Ctx, in docs.SearchInput) (db.List[*docs.Hit], error) {
	return s.Docs.Search(c, c.P, in)
}

func (s *Server) docsDetail(c *Ctx, in IDInput) (*docs.Document, error) {
	return s.Docs.Detail(c, c.P, in.ID)
}

func (s *Server) docsAdd(c *Ctx, in docs.PropsInput) (IDAnswer, error) {
	id, err := s.Docs.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) docsUpdate(c *Ctx, in docs.PropsInput) (Empty, error) {
	return Empty{}, s.Docs.Update(c, c.P, in)
}

func (s *Server) docsContent(c *Ctx, in docs.ContentInput) (Empty, error) {
	return Empty{}, s.Docs.SaveContent(c, c.P, in)
}

// DocsStatusInput enables (1) or disables (0) documents.
type DocsStatusInput struct {
	IDsInput
	Status int `json:"status"`
}

func (s *Server) docsStatus(c *Ctx, in DocsStatusInput) (Empty, error) {
	return Empty{}, s.Docs.SetStatus(c, c.P, docs.StatusInput{IDs: in.IDs, Status: in.Status})
}

func (s *Server) docsDelete(c *Ctx, in IDsInput) (Empty, error) {
	return Empty{}, s.Docs.Delete(c, c.P, in.IDs)
}

func (s *Server) docsCategories(c *Ctx, _ Empty) ([]*docs.Category, error) {
	return s.Docs.Categories(c, c.P)
}

func (s *Server) docsCategoryAdd(c *Ctx, in docs.CategoryInput) (IDAnswer, error) {
	id, err := s.Docs.AddCategory(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) docsCategoryUpdate(c *Ctx, in docs.CategoryInput) (Empty, error) {
	return Empty{}, s.Docs.UpdateCategory(c, c.P, in)
}

func (s *Server) docsCategoryDelete(c *Ctx, in IDsInput) (Empty, error) {
	return Empty{}, s.Docs.DeleteCategory(c, c.P, in.IDs)
}

func (s *Server) docsDraftGet(c *Ctx, in IDInput) (docs.Draft, error) {
	return s.Docs.GetDraft(c, c.P, in.ID)
}

func (s *Server) docsDraftSave(c *Ctx, in docs.DraftInput) (docs.Draft, error) {
	return s.Docs.SaveDraft(c, c.P, in)
}

func (s *Server) docsDraftDelete(c *Ctx, in IDInput) (Empty, error) {
	return Empty{}, s.Docs.DeleteDraft(c, c.P, in.ID)
}

// AlarmView is a device alarm with the alarm document the caller may read for its code
// (docs/docs-wiki.md, "Alarm documents"): DocID 0 when there is none.
type AlarmView struct {
	read.EventView
	DocID   int64  `json:"docId"`
	DocName string `json:"docName"`
}

// withAlarmDocs gives a page of alarms their documents (one lookup for the page).
func (s *Server) withAlarmDocs(c *Ctx, in db.List[read.EventView]) (db.List[AlarmView], error) {
	out := db.List[AlarmView]{Total: in.Total, TotalMore: in.TotalMore, List: make([]AlarmView, len(in.List))}
	refs := make([]docs.AlarmRef, len(in.List))
	for i, e := range in.List {
		out.List[i] = AlarmView{EventView: e}
		refs[i] = docs.AlarmRef{DeviceID: e.DeviceID, Code: e.Code, VendorCode: e.VendorCode}
	}
	if s.Docs == nil {
		return out, nil
	}
	found, err := s.Docs.AlarmDocs(c, c.P, refs)
	if err != nil {
		return out, err
	}
	for i, r := range found {
		out.List[i].DocID, out.List[i].DocName = r.ID, r.Name
	}
	return out, nil
}
