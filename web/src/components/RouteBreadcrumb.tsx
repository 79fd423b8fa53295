/** The trail above a page (routeMatch.ts crumbsOf): every page below a menu group, and the device blacklist. */
import { Breadcrumb } from 'antd';
import { Link, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { crumbsOf, type RouteInfo } from '../routeMatch';

export default function RouteBreadcrumb() {
  const { t } = useTranslation();
  const infos = useMatches().map((m) => m.handle as RouteInfo | undefined);
  const trail = crumbsOf(infos);
  if (trail.length === 0) return null;
  return (
    <div data-testid="breadcrumb" style={{ margin: '8px 16px 0' }}>
      <Breadcrumb items={trail.map((c, i) => ({ key: c.path, title: i < trail.length - 1 ? <Link to={c.path}>{t(c.name)}</Link> : t(c.name) }))} />
    </div>
  );
}
