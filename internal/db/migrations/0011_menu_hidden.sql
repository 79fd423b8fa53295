-- Menu management reaches the sidebar: a menu can be hidden from the sidebar (its pages stay
-- reachable for holders of its keys; the route guards check keys, not menus).
ALTER TABLE permission ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
