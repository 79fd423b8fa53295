/**
 * The energy-flow diagram (SVG): grid ↔ site bus ↔ battery, and the load off the bus, each arrow
 * pointing the way power flows with its kW (flow.ts); an idle flow is a grey line without a
 * head, an unreported one a dotted line marked "-". The battery shows its SoC. What the bus's
 * balance leaves over is a fourth arrow (flow.ts: solar or another source, or another consumer).
 */
import { useId } from 'react';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { edgeLine, flowEdges, NODE_R, NODES, type FlowEdge, type FlowNode } from './flow';
import { batteryPowerOf, socPercent, type StorageSnapshot } from './storage';

const COLORS: Record<FlowEdge['node'], string> = { grid: '#5470c6', battery: '#3ba272', load: '#fa8c16', other: '#fac858' };
const IDLE = '#bfbfbf';

function Arrow({ e, marker, label }: { e: FlowEdge; marker: string; label: string }) {
  const moving = e.dir === 'in' || e.dir === 'out';
  const color = moving ? COLORS[e.node] : IDLE;
  const l = edgeLine(e, NODE_R, moving ? 6 : 0);
  const vertical = l.x1 === l.x2;
  const mx = (l.x1 + l.x2) / 2;
  const my = (l.y1 + l.y2) / 2;
  return (
    <g data-testid={`storage-flow-${e.node}`} data-dir={e.dir} data-kw={e.kw ?? ''}>
      <line
        {...l}
        stroke={color}
        strokeWidth={moving ? 3 : 2}
        strokeDasharray={e.dir === 'unknown' ? '2 4' : moving ? undefined : '6 4'}
        markerEnd={moving ? `url(#${marker}-${e.node})` : undefined}
      />
      <text x={vertical ? mx + 10 : mx} y={vertical ? my + 4 : my - 10} textAnchor={vertical ? 'start' : 'middle'} fontSize={13} fontWeight={600} fill={moving ? color : '#8c8c8c'}>
        {label}
      </text>
    </g>
  );
}

function Node({ node, title, sub }: { node: FlowNode; title: string; sub?: string }) {
  const p = NODES[node];
  return (
    <g data-testid={`storage-node-${node}`}>
      <circle cx={p.x} cy={p.y} r={NODE_R} fill={node === 'bus' ? '#f0f5ff' : '#fafafa'} stroke={node === 'bus' ? '#2f54eb' : '#d9d9d9'} strokeWidth={2} />
      <text x={p.x} y={sub ? p.y - 2 : p.y + 4} textAnchor="middle" fontSize={12}>
        {title}
      </text>
      {sub && (
        <text x={p.x} y={p.y + 14} textAnchor="middle" fontSize={11} fill="#8c8c8c">
          {sub}
        </text>
      )}
    </g>
  );
}

export default function FlowCard({ s }: { s: StorageSnapshot }) {
  const { t, i18n } = useTranslation();
  // an id usable in url(#...): React's ids hold characters a URL reference does not take
  const marker = `flow${useId().replace(/[^a-zA-Z0-9]/g, '')}`;
  const edges = flowEdges({ gridW: s.gridW, batteryW: batteryPowerOf(s), loadW: s.loadW });
  const num = new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const label = (e: FlowEdge) => (e.kw === null ? '-' : `${num.format(e.kw)} kW`);
  const soc = socPercent(s.soc);
  // the derived fourth arrow only when something flows there (an idle one is noise)
  const other = edges.other.dir === 'in' || edges.other.dir === 'out';
  const list = [edges.grid, edges.battery, edges.load, ...(other ? [edges.other] : [])];
  const summary = list.map((e) => `${t(`ess.flow.${e.node}`)}: ${e.dir === 'in' ? '→' : e.dir === 'out' ? '←' : ''} ${label(e)}`).join('; ');
  return (
    <Card title={t('ess.flow')} style={{ marginBottom: 16 }} data-testid="storage-flow">
      <svg viewBox="0 0 400 240" width="100%" style={{ maxHeight: 260, display: 'block' }} role="img" aria-label={summary}>
        <defs>
          {list.map((e) => (
            <marker key={e.node} id={`${marker}-${e.node}`} viewBox="0 0 10 10" refX={6} refY={5} markerWidth={5} markerHeight={5} orient="auto">
              <path d="M 0 0 L 10 5 L 0 10 z" fill={COLORS[e.node]} />
            </marker>
          ))}
        </defs>
        {list.map((e) => (
          <Arrow key={e.node} e={e} marker={marker} label={label(e)} />
        ))}
        <Node node="grid" title={t('ess.flow.grid')} />
        <Node node="bus" title={t('ess.flow.bus')} />
        <Node node="battery" title={t('ess.flow.battery')} sub={soc === null ? undefined : `${soc}%`} />
        <Node node="load" title={t('ess.flow.load')} />
        {other && <Node node="other" title={t(edges.other.dir === 'in' ? 'ess.flow.otherIn' : 'ess.flow.otherOut')} />}
      </svg>
      <Typography.Text type="secondary">{t('ess.flow.hint')}</Typography.Text>
    </Card>
  );
}
