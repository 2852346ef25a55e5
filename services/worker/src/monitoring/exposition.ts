// Prometheus' text exposition format (version 0.0.4) for the gauges the control plane serves:
// label values escaped as the format says, so no value can start a line of its own.
export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface Gauge {
  name: string;
  help: string;
  samples: Sample[];
}

export function gauge(name: string, help: string, samples: Sample[]): Gauge {
  return { name, help, samples };
}

const escapeLabel = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

export function exposition(gauges: Gauge[]): string {
  const lines: string[] = [];
  for (const { name, help, samples } of gauges) {
    lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} gauge`);
    for (const { labels, value } of samples) {
      const pairs = Object.entries(labels).map(([key, v]) => `${key}="${escapeLabel(v)}"`);
      lines.push(`${name}${pairs.length ? `{${pairs.join(',')}}` : ''} ${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
