package httpapi

import (
	"chargeops/internal/db"
	"chargeops/internal/i18n"
	"chargeops/internal/menu"
)

// Menus and interfaces.

func (s *Server) menuTree(c *Ctx, _ Empty) ([]*menu.Menu, error) { return s.Menus.Tree(c) }

func (s *Server) menuAdd(c *Ctx, in menu.MenuInput) (*Empty, error) {
	return nil, s.Menus.AddMenu(c, c.P, in)
}

func (s *Server) menuUpdate(c *Ctx, in menu.MenuInput) (*Empty, error) {
	return nil, s.Menus.UpdateMenu(c, c.P, in)
}

// KeyInput names a menu.
type KeyInput struct {
	Key string `json:"key"`
}

func (s *Server) menuDelete(c *Ctx, in KeyInput) (*Empty, error) {
	return nil, s.Menus.DeleteMenu(c, c.P, in.Key)
}

func (s *Server) interfaceList(c *Ctx, in menu.InterfaceFilter) (db.List[menu.Interface], error) {
	l, err := s.Menus.Interfaces(c, in)
	for i := range l.List {
		it := &l.List[i]
		for _, rt := range s.routes { // a name the console has not changed is shown in the caller's language
			if rt.Method == it.Method && rt.Path == it.URL && rt.Summary == it.Name {
				it.Name, _ = i18n.InterfaceName(c.Locale, rt.Method, rt.Path, rt.Summary)
			}
		}
	}
	return l, err
}

func (s *Server) interfaceSave(c *Ctx, in menu.Interface) (IDAnswer, error) {
	id, err := s.Menus.SaveInterface(c, c.P, in)
	return IDAnswer{ID: id}, err
}

func (s *Server) interfaceDelete(c *Ctx, in IDsInput) (*Empty, error) {
	return nil, s.Menus.DeleteInterfaces(c, c.P, in.IDs)
}
