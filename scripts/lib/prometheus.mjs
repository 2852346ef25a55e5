// Prometheus for the platform and the tests: Debian's `prometheus` binary (installed by the
// bootstrap), one server per data directory, listening on loopback only. Its scrape targets are
// the files the worker writes in `sd/targets/` (file-based service discovery: no reload when
// instances come and go); the bearer token it scrapes with is the file `sd/scrape-token`, which
// the worker creates (nodes keep only its hash). BASALT_PROMETHEUS_URL, when set, wins: nothing is
// started, and that server must read BASALT_PROMETHEUS_SD_DIR the same way (see
// docs/monitoring.md).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { waitForHttp } from './net.mjs';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';

/** The scrape configuration: one job for every node of every instance. */
export function prometheusConfig({ sdDir, scrapeInterval }) {
  // JSON is YAML: no value can break out of its string.
  return JSON.stringify(
    {
      global: { scrape_interval: scrapeInterval, scrape_timeout: scrapeInterval, evaluation_interval: scrapeInterval },
      scrape_configs: [
        {
          job_name: 'basalt',
          metrics_path: '/metrics',
          authorization: { type: 'Bearer', credentials_file: path.join(sdDir, 'scrape-token') },
          file_sd_configs: [{ files: [path.join(sdDir, 'targets', '*.json')] }],
        },
      ],
    },
    null,
    2,
  );
}

/**
 * Starts Prometheus with its data in `dir` on 127.0.0.1:`port`. Returns {url, sdDir, env, stop};
 * `env` is what the API and the worker need to find it.
 */
export async function startPrometheus({ dir, port, scrapeInterval = '10s', retention = '15d', logDir }) {
  if (process.env.BASALT_PROMETHEUS_URL) {
    const sdDir = process.env.BASALT_PROMETHEUS_SD_DIR;
    if (!sdDir) throw new Error('BASALT_PROMETHEUS_URL is set: set BASALT_PROMETHEUS_SD_DIR to the directory its file_sd job reads too');
    const url = process.env.BASALT_PROMETHEUS_URL.replace(/\/+$/, '');
    return { url, sdDir, external: true, env: { BASALT_PROMETHEUS_URL: url, BASALT_PROMETHEUS_SD_DIR: sdDir }, stop: async () => {} };
  }
  if (!fs.existsSync(PROMETHEUS_BIN)) throw new Error(`${PROMETHEUS_BIN} is missing: run the bootstrap (apt package prometheus)`);
  const sdDir = path.join(dir, 'sd');
  fs.mkdirSync(path.join(sdDir, 'targets'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(logDir, { recursive: true });
  const configFile = path.join(dir, 'prometheus.yml');
  fs.writeFileSync(configFile, `${prometheusConfig({ sdDir, scrapeInterval })}\n`);
  const logFile = path.join(logDir, 'prometheus.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--storage.tsdb.retention.time=${retention}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', out, out], detached: true },
  );
  fs.closeSync(out);
  let exited = false;
  child.on('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((resolve) => {
      if (exited) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => { clearTimeout(timer); resolve(); });
      child.kill('SIGTERM');
    });
  try {
    await waitForHttp(`${url}/-/ready`, { alive: () => !exited, timeoutMs: 60_000 });
  } catch (err) {
    await stop();
    const tail = fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-10).join('\n');
    throw new Error(`Prometheus did not start: ${err.message}\n--- ${logFile} ---\n${tail}`);
  }
  return { url, sdDir, child, external: false, env: { BASALT_PROMETHEUS_URL: url, BASALT_PROMETHEUS_SD_DIR: sdDir }, stop };
}
