// A grouped bar chart as a standalone SVG: the committed reports' charts (docs/benchmarks), drawn
// from the same BarChartData and colours as the console's recharts charts (benchmark-report-charts.ts).
// Deterministic (the same data gives the same bytes), so a committed SVG is checked like its markdown.
import { seriesColour, type SuiteChart } from './benchmark-report-charts.js';

const WIDTH = 760;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"';
/** Roughly how wide a character of the 11 px axis font is, to wrap labels under their group. */
const CHAR_PX = 6.2;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** 1, 2 or 5 times a power of ten: a tick step at least `raw`. */
function niceStep(raw: number): number {
  if (!(raw > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}

/** Ticks and bar values: 823,857 -> "824k", 1.2e6 -> "1.2M", 0.226 -> "0.23". */
function compact(n: number): string {
  // Trailing zeros of the fraction only: 800 stays 800.
  const trim = (x: number, digits: number) => x.toFixed(digits).replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  if (Math.abs(n) >= 1e6) return `${trim(n / 1e6, 2)}M`;
  if (Math.abs(n) >= 1e4) return `${trim(n / 1e3, 0)}k`;
  if (Math.abs(n) >= 1e3) return `${trim(n / 1e3, 1)}k`;
  if (Math.abs(n) >= 10) return trim(n, 0);
  return trim(n, 2);
}

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

export function barChartSvg({ title, unit, chart }: SuiteChart): string {
  const left = 64;
  const right = 16;
  const plotWidth = WIDTH - left - right;
  const groups = chart.data.length;
  const groupWidth = plotWidth / Math.max(groups, 1);
  const labels = chart.data.map((d) => wrap(d.label, Math.max(8, Math.floor((groupWidth - 8) / CHAR_PX))));
  const labelLines = Math.max(1, ...labels.map((l) => l.length));
  // Legend: one row of swatches under the title, wrapped when it is wider than the chart.
  const legend: { x: number; y: number; name: string; colour: string }[] = [];
  let lx = left;
  let ly = 44;
  chart.series.forEach((s, i) => {
    const w = 22 + s.name.length * CHAR_PX + 16;
    if (lx + w > WIDTH - right && lx > left) {
      lx = left;
      ly += 18;
    }
    legend.push({ x: lx, y: ly, name: s.name, colour: seriesColour(s.key, i) });
    lx += w;
  });
  const top = ly + 22;
  const plotHeight = 220;
  const bottom = top + plotHeight;
  const height = bottom + 12 + labelLines * 14 + 10;

  const values = chart.data.flatMap((d) => chart.series.map((s) => d[s.key])).filter((v): v is number => typeof v === 'number');
  const step = niceStep(Math.max(...values, 0) / 5);
  const max = Math.max(step, Math.ceil(Math.max(...values, 0) / step) * step);
  const y = (v: number) => bottom - (v / max) * plotHeight;

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escape(title)}">`,
    `<title>${escape(title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" ${FONT} font-size="14" font-weight="600" fill="#111827">${escape(title)}</text>`,
  ];
  for (const item of legend) {
    out.push(`<rect x="${item.x}" y="${item.y - 9}" width="12" height="12" rx="2" fill="${item.colour}"/>`);
    out.push(`<text x="${item.x + 18}" y="${item.y + 1}" ${FONT} font-size="12" fill="#374151">${escape(item.name)}</text>`);
  }
  for (let v = 0; v <= max + step / 2; v += step) {
    const at = y(v).toFixed(1);
    out.push(`<line x1="${left}" x2="${WIDTH - right}" y1="${at}" y2="${at}" stroke="#e3e6eb" stroke-dasharray="3 3"/>`);
    out.push(`<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" ${FONT} font-size="11" fill="#6b7280" text-anchor="end">${compact(v)}</text>`);
  }
  out.push(`<text x="14" y="${(top + plotHeight / 2).toFixed(1)}" ${FONT} font-size="11" fill="#6b7280" text-anchor="middle" transform="rotate(-90 14 ${(top + plotHeight / 2).toFixed(1)})">${escape(unit)}</text>`);
  const barWidth = Math.min(36, (groupWidth * 0.8) / Math.max(chart.series.length, 1));
  chart.data.forEach((datum, g) => {
    const start = left + g * groupWidth + (groupWidth - barWidth * chart.series.length) / 2;
    chart.series.forEach((s, i) => {
      const v = datum[s.key];
      if (typeof v !== 'number') return;
      const x = start + i * barWidth;
      out.push(`<rect x="${(x + 1).toFixed(1)}" y="${y(v).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${(bottom - y(v)).toFixed(1)}" rx="2" fill="${seriesColour(s.key, i)}"><title>${escape(`${datum.label}, ${s.name}: ${v.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${unit}`)}</title></rect>`);
      out.push(`<text x="${(x + barWidth / 2).toFixed(1)}" y="${(y(v) - 3).toFixed(1)}" ${FONT} font-size="9" fill="#374151" text-anchor="middle">${compact(v)}</text>`);
    });
    labels[g]!.forEach((line, n) => {
      out.push(`<text x="${(left + (g + 0.5) * groupWidth).toFixed(1)}" y="${bottom + 16 + n * 14}" ${FONT} font-size="11" fill="#374151" text-anchor="middle">${escape(line)}</text>`);
    });
  });
  out.push(`<line x1="${left}" x2="${WIDTH - right}" y1="${bottom}" y2="${bottom}" stroke="#9ca3af"/>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
