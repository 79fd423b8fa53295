package i18n

// Messages of the console shell: menu management as it reaches the sidebar.
func init() {
	register(map[string][2]string{
		"err.menu_keep_visible": {"Menus and interfaces, and the System menu above it, cannot be hidden: the sidebar would lose its way back here",
			"“菜单与接口”及其上级“系统”菜单不能隐藏：否则侧边栏将无法回到此处"},
	})
}
