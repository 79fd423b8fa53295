/** The trail above a page whose route asks for one (RouteDef.breadcrumb; the device blacklist). */
import { Breadcrumb } from 'antd';
import { Link, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { trailOf, type RouteInfo } from '../utils/routeMatch';

export default function RouteBreadcrumb() {
  const { t } = useTranslation();
  const infos = useMatches().map((m) => m.handle as RouteInfo | undefined);
  if (!infos[infos.length - 1]?.breadcrumb) return null;
  const trail = trailOf(infos);
  return (
    <div data-testid="breadcrumb" style={{ margin: '8px 16px 0' }}>
      <Breadcrumb items={trail.map((c, i) => ({ key: c.path, title: i < trail.length - 1 ? <Link to={c.path}>{t(c.name)}</Link> : t(c.name) }))} />
    </div>
  );
}
