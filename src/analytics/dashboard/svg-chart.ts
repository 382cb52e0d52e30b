import { esc } from './html';

/** A pixel coordinate, to a tenth: drawing, not money. */
const px = (n: number): string => n.toFixed(1); // stop-check: deliberate, a pixel coordinate, not money

/** One series of a bar chart: its values per label (negative bars go below the axis). */
export interface ChartSeries {
  name: string;
  /** A CSS class (the page's stylesheet gives it a colour that also prints). */
  cls: string;
  values: number[];
}

export interface BarChart {
  title: string;
  labels: string[];
  series: ChartSeries[];
  /** Stacked (movements) or side by side (revenue). */
  stacked?: boolean;
  /** Formats a value for its label and tooltip. */
  format: (value: number) => string;
}

const W = 640;
const H = 260;
const PAD = { top: 16, right: 8, bottom: 44, left: 64 };

/** A round step for about five grid lines over `span`. */
function niceStep(span: number): number {
  if (span <= 0) return 1;
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((f) => f * power).find((s) => s >= raw) ?? 10 * power;
}

/**
 * A bar chart as an SVG element drawn on the server: scales to its container (viewBox),
 * labelled for screen readers (`role="img"`, `<title>`), each bar carrying its series,
 * label and exact value (`data-*`, and a `<title>` tooltip) so the figures can be read
 * back from the page. The values only place the bars; the figures shown are formatted
 * from the exact ones by the caller.
 */
export function barChart(chart: BarChart): string {
  const { labels, series } = chart;
  const sums = labels.map((_, i) => {
    const at = series.map((s) => s.values[i] ?? 0);
    return chart.stacked
      ? [at.filter((v) => v < 0).reduce((a, v) => a + v, 0), at.filter((v) => v > 0).reduce((a, v) => a + v, 0)]
      : [Math.min(0, ...at), Math.max(0, ...at)];
  });
  const lo = Math.min(0, ...sums.map((s) => s[0]));
  const hi = Math.max(0, ...sums.map((s) => s[1]));
  const step = niceStep(hi - lo);
  const [min, max] = [Math.floor(lo / step) * step, Math.ceil(hi / step) * step || step];
  const plotH = H - PAD.top - PAD.bottom;
  const plotW = W - PAD.left - PAD.right;
  const y = (v: number) => PAD.top + ((max - v) / (max - min)) * plotH;
  const slot = plotW / Math.max(1, labels.length);
  const barW = chart.stacked ? slot * 0.6 : (slot * 0.8) / Math.max(1, series.length);
  const parts: string[] = [];
  for (let v = min; v <= max + step / 2; v += step) {
    parts.push(
      `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${px(y(v))}" y2="${px(y(v))}"/>`,
      `<text class="tick" x="${PAD.left - 6}" y="${px(y(v) + 4)}" text-anchor="end">${esc(chart.format(v))}</text>`,
    );
  }
  labels.forEach((label, i) => {
    const x0 = PAD.left + slot * i;
    let up = 0;
    let down = 0;
    series.forEach((s, k) => {
      const value = s.values[i] ?? 0;
      let top: number;
      let bottom: number;
      if (chart.stacked) {
        const base = value >= 0 ? up : down;
        [top, bottom] = value >= 0 ? [y(base + value), y(base)] : [y(base), y(base + value)];
        if (value >= 0) up += value;
        else down += value;
      } else [top, bottom] = value >= 0 ? [y(value), y(0)] : [y(0), y(value)];
      const x = chart.stacked ? x0 + (slot - barW) / 2 : x0 + slot * 0.1 + barW * k;
      parts.push(
        `<rect class="bar ${esc(s.cls)}" x="${px(x)}" y="${px(top)}" width="${px(barW)}" height="${px(Math.max(0, bottom - top))}"` +
          ` data-series="${esc(s.name)}" data-label="${esc(label)}" data-value="${esc(value)}">` +
          `<title>${esc(`${s.name}, ${label}: ${chart.format(value)}`)}</title></rect>`,
      );
    });
    parts.push(
      `<text class="label" x="${px(x0 + slot / 2)}" y="${H - PAD.bottom + 16}" text-anchor="middle">${esc(label)}</text>`,
    );
  });
  parts.push(`<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${px(y(0))}" y2="${px(y(0))}"/>`);
  // Each legend entry as wide as its name (about 6.2 units a character at 11px), so long names never overlap.
  let at = PAD.left;
  const legend = series
    .map((s) => {
      const entry =
        `<rect class="${esc(s.cls)}" x="${Math.round(at)}" y="${H - 16}" width="10" height="10"/>` +
        `<text class="legend" x="${Math.round(at + 14)}" y="${H - 7}">${esc(s.name)}</text>`;
      at += 14 + s.name.length * 6.2 + 18;
      return entry;
    })
    .join('');
  return (
    `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(chart.title)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${esc(chart.title)}</title>${parts.join('')}${legend}</svg>`
  );
}
