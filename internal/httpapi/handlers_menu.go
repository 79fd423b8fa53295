package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/menu"
)

// Menus and interfaces.

func (s *Server) menuTree(c *Ctx, _ Empty) ([]*menu.Menu, error) { return s.Menus.Tree(c) }

func (s *Server) menuAdd(c *Ctx, in menu.MenuInput) (*Empty, error) {
	return nil, s.Menus.AddMenu(c, in)
}

func (s *Server) menuUpdate(c *Ctx, in menu.MenuInput) (*Empty, error) {
	return nil, s.Menus.UpdateMenu(c, in)
}

// KeyInput names a menu.
type KeyInput struct {
	Key string `json:"key"`
}

func (s *Server) menuDelete(c *Ctx, in KeyInput) (*Empty, error) {
	return nil, s.Menus.DeleteMenu(c, in.Key)
}

func (s *Server) interfaceList(c *Ctx, in menu.InterfaceFilter) (db.List[menu.Interface], error) {
	return s.Menus.Interfaces(c, in)
}

func (s *Server) interfaceSave(c *Ctx, in menu.Interface) (IDAnswer, error) {
	id, err := s.Menus.SaveInterface(c, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) interfaceDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Menus.DeleteInterfaces(c, in.IDs)
}
