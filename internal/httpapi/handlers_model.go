package httpapi

import (
	"chargeops/internal/apperr"
	"chargeops/internal/db"
	"chargeops/internal/devmodel"
)

// Device models, their items and aliases.

func (s *Server) modelList(c *Ctx, in devmodel.ListFilter) (db.List[devmodel.Model], error) {
	return s.Models.List(c, c.P, in)
}

func (s *Server) modelDetail(c *Ctx, in IDInput) (devmodel.Model, error) {
	return s.Models.Get(c, c.P, in.ID)
}

func (s *Server) modelAdd(c *Ctx, in devmodel.Input) (IDAnswer, error) {
	id, err := s.Models.Add(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) modelUpdate(c *Ctx, in devmodel.Input) (*Empty, error) {
	return nil, s.Models.Update(c, c.P, in)
}

func (s *Server) modelDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Models.Delete(c, c.P, in.IDs)
}

func (s *Server) modelItems(c *Ctx, in devmodel.ItemFilter) ([]devmodel.Item, error) {
	return s.Models.Items(c, c.P, in)
}

func (s *Server) modelItemAdd(c *Ctx, in devmodel.Item) (IDAnswer, error) {
	id, err := s.Models.AddItem(c, c.P, in)
	return IDAnswer{ID: id}, err
}

// StorageItemsInput names the model the storage template's items go to.
type StorageItemsInput struct {
	ModelID int64 `json:"modelId"`
}

func (in StorageItemsInput) validate() error {
	if in.ModelID <= 0 {
		return apperr.InvalidField("modelId", "err.invalid")
	}
	return nil
}

// StorageItemsAnswer says how many items were added.
type StorageItemsAnswer struct {
	Added int `json:"added"`
}

func (s *Server) modelStorageItems(c *Ctx, in StorageItemsInput) (StorageItemsAnswer, error) {
	n, err := s.Models.AddStorageItems(c, c.P, in.ModelID, c.Locale == "zh-CN") // named in the caller's language
	return StorageItemsAnswer{Added: n}, err
}

func (s *Server) modelItemUpdate(c *Ctx, in devmodel.Item) (*Empty, error) {
	return nil, s.Models.UpdateItem(c, c.P, in)
}

func (s *Server) modelItemDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Models.DeleteItems(c, c.P, in.IDs)
}

func (s *Server) aliasList(c *Ctx, in devmodel.AliasFilter) (db.List[devmodel.Alias], error) {
	return s.Models.Aliases(c, c.P, in)
}

func (s *Server) aliasAdd(c *Ctx, in devmodel.AliasInput) (IDAnswer, error) {
	id, err := s.Models.AddAlias(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) aliasDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Models.DeleteAliases(c, c.P, in.IDs)
}
